/** Market entries (with dry run and client_order_id idempotency), the hand-over of limit and stop entries, and stop/target changes. */
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../core/errors.js';
import { baseTakerPct, type FeeVenue } from '../../engine/fees.js';
import { isMajor } from '../../engine/majors.js';
import { checkLevels } from '../../engine/open-pricing.js';
import type { OrderReach, OrderType } from '../../engine/order-rules.js';
import { effectiveProfile, modelEntry, type ModelledEntry, type OpenOverrides } from '../../engine/realism.js';
import type { Side } from '../../engine/side.js';
import { rejected, type SimProfile } from '../../engine/sim-profile.js';
import { entryTrade } from '../../engine/slippage.js';
import { levelsChange } from '../../engine/triggers.js';
import { bookSeed } from '../sim/sim-settings.js';
import { changeKey, STALE } from '../change-gate.js';
import type { KeyContext } from '../key-context.js';
import { parseFeeVenue } from '../fees/fee-settings.js';
import { PrefetchedFill, type EntryPrice, type LivePrice } from '../markets/live-prices.js';
import type { Order } from '../orders/order-types.js';
import { buildPosition, checkLeverage, dryRunPosition, priceEntry, type EntryTerms } from './position-builder.js';
import { defaultPositionId, fundingOwed, type PositionDeps } from './position-deps.js';
import type { BookRef, Position, StoredPosition } from './position-types.js';
import { closedView, openView, type PositionView } from './position-view.js';

export interface OpenOptions {
  prefetched?: unknown;
  oneWay?: boolean;
}

export interface OpenRequest {
  symbol: string;
  side: Side;
  margin_usd: number;
  leverage: number;
  sl?: number | null;
  tp?: number | null;
  /** 0 or absent: no trailing stop. */
  trail_pct?: number;
  /** Absent or market: fill now; limit or stop: rest until the market reaches limit_price. */
  type?: 'market' | OrderType;
  /** The level of a limit or stop entry. */
  limit_price?: number;
  client_order_id?: string;
  dry_run?: boolean;
  /** A venue name, null for the class rates, absent for the account's venue. */
  fee_venue?: string | null;
  mmr_pct?: number;
  /** Per-call realism: this fill only, over the book's profile. */
  slippage?: boolean;
  margin_tiers?: boolean;
}

/** How much of a market open filled (the book's profile may fill part of it). */
export type FillView = ModelledEntry['fill'];

export type MarketOpenResult =
  | { ok: true; position: PositionView; idempotent: boolean; fill?: FillView }
  | { ok: true; dry_run: true; position: Record<string, unknown>; fill?: FillView };

/**
 * What a dry run of a limit or stop entry would rest: direction is the way the market has to move
 * to reach the level; would_fill_now is false on every answer, since a level the market already
 * reached is refused (limit_marketable, stop_wrong_side) as the real call would refuse it.
 */
export interface DryRunOrder {
  type: OrderType;
  symbol: string;
  side: Side;
  limit_price: number;
  direction: OrderReach;
  would_fill_now: false;
}

/**
 * A limit or stop entry answers with its resting order (idempotent: an order this client_order_id
 * placed before); its dry run with the order and the position it would open (position_if_filled).
 */
export type OpenResult =
  | MarketOpenResult
  | { ok: true; order: Order; idempotent: boolean }
  | { ok: true; dry_run: true; order: DryRunOrder; position_if_filled: Record<string, unknown> };

/** Places limit and stop entries (shared/paper/orders): /open hands them over. */
export interface RestingOrderPlacer {
  place(ctx: KeyContext, req: OpenRequest & { type: OrderType }): Promise<OpenResult>;
}

export interface SltpRequest {
  id: string;
  sl?: number | null;
  tp?: number | null;
  trail_pct?: number | null;
}

/** The terms of an open request at a price: the entry it would make, wherever it fills. */
export function entryTerms(req: OpenRequest, live: Pick<LivePrice, 'symbol' | 'assetClass'>, venue: FeeVenue | undefined): EntryTerms {
  return {
    symbol: live.symbol,
    assetClass: live.assetClass,
    side: req.side,
    margin: req.margin_usd,
    leverage: req.leverage,
    sl: req.sl ?? null,
    tp: req.tp ?? null,
    trailPct: req.trail_pct === undefined || req.trail_pct === 0 ? null : req.trail_pct,
    venue,
    mmrPct: req.mmr_pct,
  };
}

/** The venue an open names: a parsed venue, null for the class rates, undefined for the account's venue. */
export function explicitVenue(req: Pick<OpenRequest, 'fee_venue'>): FeeVenue | null | undefined {
  return req.fee_venue === undefined || req.fee_venue === null ? req.fee_venue : parseFeeVenue(req.fee_venue);
}

export const refOf = (ctx: KeyContext): BookRef =>
  ctx.requestId === undefined
    ? { accountId: ctx.accountId, book: ctx.book }
    : { accountId: ctx.accountId, book: ctx.book, reqId: ctx.requestId };

/** The realism an open sets for itself. */
export const overridesOf = (req: OpenRequest): OpenOverrides => ({
  slippage: req.slippage,
  margin_tiers: req.margin_tiers,
  mmr_pct: req.mmr_pct,
});

/** 400 notional_max above the book profile's max_notional_usd. */
export function checkNotional(notional: number, max: number): void {
  if (notional > max) {
    throw new AppError('notional_max', `a notional of ${notional} USD is above this book's max_notional_usd of ${max}`, {
      max,
      requested: notional,
      hint: 'lower margin_usd or leverage, or raise max_notional_usd (/sim)',
    });
  }
}

export class PositionService {
  constructor(
    private readonly deps: PositionDeps,
    /** Where limit and stop entries go. */
    private readonly orders: RestingOrderPlacer,
  ) {}

  /**
   * The open route's prefetch: a market open's fill price, read from its body as sent while the key
   * gate runs; undefined for anything else (open checks it against the validated request).
   */
  prefetchFill(body: unknown): PrefetchedFill | undefined {
    if (body === null || typeof body !== 'object') return undefined;
    const { symbol, type, limit_price: limitPrice, stop_price: stopPrice } = body as Record<string, unknown>;
    if (typeof symbol !== 'string' || (type !== undefined && type !== 'market') || limitPrice !== undefined || stopPrice !== undefined)
      return undefined;
    return new PrefetchedFill(symbol, this.deps.prices.settledEntryPrice(symbol));
  }

  /**
   * `prefetched`: what prefetchFill started for this request, if anything; used when it is for the same symbol.
   * `oneWay`: a market open refused (symbol_held) while the book holds an open position in the symbol.
   */
  open(ctx: KeyContext, req: OpenRequest & { type?: 'market' }, options?: OpenOptions): Promise<MarketOpenResult>;
  open(ctx: KeyContext, req: OpenRequest, options?: OpenOptions): Promise<OpenResult>;
  async open(ctx: KeyContext, req: OpenRequest, { prefetched, oneWay = false }: OpenOptions = {}): Promise<OpenResult> {
    if (req.type === 'limit' || req.type === 'stop') return this.orders.place(ctx, { ...req, type: req.type });
    const { store, prices, fees, sim, clock } = this.deps;
    const requestTs = clock.now();
    const ref = refOf(ctx);
    const coid = req.client_order_id ?? null;
    const named = explicitVenue(req);
    const [fill, accountVenue, profile] = await Promise.all([
      prefetched instanceof PrefetchedFill && prefetched.symbol === req.symbol ? prefetched.fill : prices.settledEntryPrice(req.symbol),
      named === undefined ? fees.venueFor(ctx) : undefined,
      sim.profileOf(ctx),
    ]);
    try {
      if ('error' in fill) throw fill.error;
      const venue = named === undefined ? accountVenue : (named ?? undefined);
      return await this.fill(ctx, req, fill.value, venue, effectiveProfile(profile, overridesOf(req)), { requestTs, oneWay });
    } catch (error) {
      // a reused client_order_id answers with its position even when the market has moved since
      // (no price now, or levels now on the wrong side); the open script itself answers the other reuses
      const prior = coid !== null && !req.dry_run && error instanceof AppError ? await store.findIdempotentOpen(ref, coid) : null;
      if (prior) return { ok: true, position: this.view(prior, 'value' in fill ? fill.value : undefined), idempotent: true };
      throw error;
    }
  }

  private async fill(
    ctx: KeyContext,
    req: OpenRequest,
    quoted: EntryPrice,
    venue: FeeVenue | undefined,
    profile: SimProfile,
    { requestTs, oneWay }: { requestTs: number; oneWay: boolean },
  ): Promise<MarketOpenResult> {
    const { store, clock } = this.deps;
    const ref = refOf(ctx);
    const terms = entryTerms(req, quoted, venue);
    const maxLeverage = Math.min(quoted.maxLeverage, profile.leverage_max);
    checkLeverage(quoted.symbol, terms.leverage, maxLeverage);
    checkNotional(terms.margin * terms.leverage, profile.max_notional_usd);
    if (!req.dry_run && profile.reject_rate_pct > 0) await this.drawReject(ref, profile.reject_rate_pct);
    const live = req.dry_run ? quoted : await this.afterLatency(quoted, profile.latency_ms, requestTs);
    const model = await this.model(terms, live, profile);
    const entry = priceEntry(terms, live.price, undefined, model);
    if (req.dry_run) return { ok: true, dry_run: true, position: dryRunPosition(terms, entry, maxLeverage), fill: model.fill };

    const now = clock.now();
    const id = defaultPositionId(now);
    const coid = req.client_order_id ?? null;
    const position = buildPosition(terms, entry, { id, book: ctx.book, openedTs: now, clientOrderId: coid });
    const outcome = await store.open(ref, position, ctx.plan.limits.maxOpenPositions, { enforceMargin: profile.margin_enforced, oneWay });
    if (outcome.kind === 'held')
      throw new AppError('symbol_held', `this book holds open position ${outcome.id} in ${position.symbol}: an order nets onto it`, {
        id: outcome.id,
      });
    if (outcome.kind === 'budget') {
      throw new AppError(
        'insufficient_margin',
        `this open needs ${position.margin} USD of margin and the book has ${outcome.freeCents / 100} free`,
        {
          required_margin_usd: position.margin,
          free_margin_usd: outcome.freeCents / 100,
          margin_in_use_usd: outcome.inUseCents / 100,
          balance_usd: outcome.balanceCents / 100,
          hint: 'margin_enforced is on for this book (/sim): close a position, open smaller, or turn it off',
        },
      );
    }
    if (outcome.kind === 'cap') {
      throw new AppError('too_many_open', `this book holds ${outcome.open} open positions, the ${ctx.plan.limits.label} plan's cap`, {
        max: ctx.plan.limits.maxOpenPositions,
        open: outcome.open,
      });
    }
    // a reset archived the position this client_order_id opened and then the archive went: nothing to show but that
    if (!outcome.stored)
      throw new AppError('already_closed', `the position opened with client_order_id ${coid} was closed and archived`, {
        client_order_id: coid,
      });
    const idempotent = outcome.kind === 'idempotent';
    return { ok: true, position: this.view(outcome.stored, live), idempotent, ...(idempotent ? {} : { fill: model.fill }) };
  }

  /** 503 order_rejected on the book's seeded draws (reject_rate_pct): the same profile meets the same refusals. */
  private async drawReject(ref: ReturnType<typeof refOf>, ratePct: number): Promise<void> {
    const n = await this.deps.sim.nextDraw(ref);
    if (rejected(bookSeed(ref), n, ratePct)) {
      throw new AppError('order_rejected', 'the simulated venue rejected this order (reject_rate_pct of the book profile): send it again', {
        retryable: true,
        retry_after: 0,
        reject_rate_pct: ratePct,
        draw: n,
      });
    }
  }

  /**
   * The price latency_ms after the request: waits out what is left of it (the request's own time
   * counts), then reads the price then. Not before: the price of a later moment is not known yet.
   */
  private async afterLatency(quoted: EntryPrice, latencyMs: number, requestTs: number): Promise<EntryPrice> {
    if (latencyMs <= 0) return quoted;
    const left = requestTs + latencyMs - this.deps.clock.now();
    if (left > 0) await sleep(left);
    const later = await this.deps.prices.fillPrice(quoted.symbol);
    return { ...quoted, price: later.price, ts: later.ts };
  }

  /** The profile's fill of these terms at `live` (the book walked for a major when the profile asks for it). */
  private async model(terms: EntryTerms, live: EntryPrice, profile: SimProfile): Promise<ModelledEntry> {
    const book =
      profile.impact_bps_per_100k === 'book' && isMajor(live.symbol)
        ? await this.deps.depth.side(live.symbol, entryTrade(terms.side))
        : undefined;
    const model = modelEntry({
      profile,
      symbol: live.symbol,
      assetClass: live.assetClass,
      side: terms.side,
      reference: live.price,
      margin: terms.margin,
      leverage: terms.leverage,
      tablePct: baseTakerPct(terms.assetClass, terms.venue).ratePct,
      book,
    });
    if (!model.ok || model.margin < 1) {
      const fillPct = model.ok ? model.fill.fill_pct : model.fillPct;
      throw new AppError('fill_below_min', `the modelled depth takes ${fillPct.toFixed(2)}% of this open, below the book's min_fill_pct`, {
        fill_pct: fillPct,
        min_fill_pct: profile.min_fill_pct,
        hint: 'open smaller, or lower min_fill_pct (/sim)',
      });
    }
    return model;
  }

  /** Sets (number), clears (null) or keeps (absent) the stop-loss, take-profit and trailing stop. */
  async sltp(ctx: KeyContext, req: SltpRequest): Promise<{ ok: true; position: PositionView }> {
    const { store, clock } = this.deps;
    if (req.sl === undefined && req.tp === undefined && req.trail_pct === undefined) {
      throw new AppError('sl_or_tp_required', 'send sl, tp or trail_pct (a number sets it, null clears it)');
    }
    const ref = refOf(ctx);
    return this.deps.changes.run(changeKey('position', ref, req.id), `position ${req.id}`, async () => {
      const read = await store.getOpen(ref, req.id);
      if (!read) throw await this.notOpen(ctx, req.id);
      const p = read.position;
      const wrong = checkLevels(p.side, p.entry, req.sl, req.tp);
      if (wrong) {
        throw new AppError(
          wrong,
          `the ${wrong === 'sl_wrong_side' ? 'stop-loss' : 'take-profit'} is on the wrong side of the entry (${p.entry})`,
          { live: p.entry },
        );
      }
      const trail = req.trail_pct === undefined ? p.trail_pct : req.trail_pct === null || req.trail_pct === 0 ? null : req.trail_pct;
      const sl = req.sl === undefined ? p.sl : req.sl;
      const tp = req.tp === undefined ? p.tp : req.tp;
      const now = clock.now();
      // a candle of this minute is checked against the levels it began with too (shared/engine/triggers.ts); resending one changes nothing
      const changed = sl !== p.sl || tp !== p.tp || trail !== p.trail_pct;
      const updated: Position = {
        ...p,
        v: p.v + 1,
        sl,
        tp,
        trail_pct: trail,
        trail_hwm: trail === null ? null : (p.trail_hwm ?? p.entry),
        ...(changed ? levelsChange(p, now) : {}),
      };
      const outcome = await store.sltp(ref, read, updated, now);
      if (outcome === 'updated') {
        const [marks, fundingUsd] = await Promise.all([this.deps.prices.marks([p.symbol]), fundingOwed(this.deps.funding, updated, now)]);
        return { ok: true, position: openView(updated, marks.get(p.symbol), fundingUsd) };
      }
      if (outcome === 'gone') throw await this.notOpen(ctx, req.id);
      return STALE;
    });
  }

  /** 409 already_closed when the id is a closed position of this book, else 404 position_not_found. */
  async notOpen(ctx: KeyContext, id: string): Promise<AppError> {
    const closed = await this.deps.store.getClosed(refOf(ctx), id);
    if (closed) return new AppError('already_closed', `position ${id} is already closed`, { id });
    return new AppError('position_not_found', `no open position ${id} in book ${ctx.book}`, { id });
  }

  /**
   * A position just opened, or found again for a reused client_order_id: an open one marked at the
   * live price of this request (its entry when there is none), without funding times read (a
   * position this young owes at most what it carried); a closed one as it settled.
   */
  private view(stored: StoredPosition, live: LivePrice | undefined): PositionView {
    const p = stored.position;
    if (p.status !== 'open') return closedView(p);
    const mark = live && live.symbol === p.symbol ? live.price : p.entry;
    return openView(p, { price: mark, stale: false }, p.funding_carry_usd);
  }
}
