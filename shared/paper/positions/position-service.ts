/** Market entries (with dry run and client_order_id idempotency) and stop/target changes. */
import { AppError } from '../../core/errors.js';
import { baseTakerPct, cappedRatePct, CLASS_TAKER_PCT, type FeeVenue } from '../../engine/fees.js';
import { checkLevels, priceOpen } from '../../engine/open-pricing.js';
import { roundUsd, trimNumber, type Side } from '../../engine/side.js';
import type { KeyContext } from '../key-context.js';
import { parseFeeVenue } from '../fees/fee-settings.js';
import { MAX_LEVERAGE } from '../markets/asset-classes.js';
import type { LivePrice } from '../markets/live-prices.js';
import { defaultPositionId, fundingOwed, MAX_ATTEMPTS, type PositionDeps } from './position-deps.js';
import type { Position, StoredPosition } from './position-types.js';
import { closedView, openView, type PositionView } from './position-view.js';

export interface OpenRequest {
  symbol: string;
  side: Side;
  margin_usd: number;
  leverage: number;
  sl?: number | null;
  tp?: number | null;
  /** 0 or absent: no trailing stop. */
  trail_pct?: number;
  client_order_id?: string;
  dry_run?: boolean;
  /** A venue name, null for the class rates, absent for the account's venue. */
  fee_venue?: string | null;
  mmr_pct?: number;
}

export type OpenResult = { ok: true; position: PositionView; idempotent: boolean } | { ok: true; dry_run: true; position: Record<string, unknown> };

export interface SltpRequest {
  id: string;
  sl?: number | null;
  tp?: number | null;
  trail_pct?: number | null;
}

export const refOf = (ctx: KeyContext) => ({ accountId: ctx.accountId, book: ctx.book });

export class PositionService {
  constructor(private readonly deps: PositionDeps) {}

  async open(ctx: KeyContext, req: OpenRequest): Promise<OpenResult> {
    const { store, prices, fees } = this.deps;
    const ref = refOf(ctx);
    const coid = req.client_order_id ?? null;
    const explicitVenue = req.fee_venue === undefined || req.fee_venue === null ? req.fee_venue : parseFeeVenue(req.fee_venue);
    const [fill, accountVenue] = await Promise.all([
      prices.fillPrice(req.symbol).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      explicitVenue === undefined ? fees.venue(ctx.accountId) : undefined,
    ]);
    try {
      if ('error' in fill) throw fill.error;
      return await this.fill(ctx, req, fill.value, explicitVenue === undefined ? accountVenue : (explicitVenue ?? undefined));
    } catch (error) {
      // a reused client_order_id answers with its position even when the market has moved since
      // (no price now, or levels now on the wrong side); the open script itself answers the other reuses
      const prior = coid !== null && !req.dry_run && error instanceof AppError ? await store.findIdempotentOpen(ref, coid) : null;
      if (prior) return { ok: true, position: this.view(prior, 'value' in fill ? fill.value : undefined), idempotent: true };
      throw error;
    }
  }

  private async fill(ctx: KeyContext, req: OpenRequest, live: LivePrice, venue: FeeVenue | undefined): Promise<OpenResult> {
    const { store, clock } = this.deps;
    const ref = refOf(ctx);
    const coid = req.client_order_id ?? null;

    const max = MAX_LEVERAGE[live.assetClass];
    if (req.leverage > max) {
      throw new AppError('leverage_max', `leverage ${req.leverage} is above the ${max}x cap of ${live.symbol}`, {
        symbol: live.symbol,
        max,
        requested: req.leverage,
        hint: `send leverage between 1 and ${max}`,
      });
    }
    const base = baseTakerPct(live.assetClass, venue);
    const priced = priceOpen({ side: req.side, entry: live.price, margin: req.margin_usd, leverage: req.leverage, baseRatePct: base.ratePct, flatMmrPct: req.mmr_pct });
    const wrong = checkLevels(req.side, priced.entry, req.sl, req.tp);
    if (wrong) {
      const level = wrong === 'sl_wrong_side' ? 'stop-loss' : 'take-profit';
      const where = (wrong === 'sl_wrong_side') === (req.side === 'long') ? 'below' : 'above';
      throw new AppError(wrong, `the ${level} of a ${req.side} must be ${where} the entry (${priced.entry})`, { live: priced.entry });
    }

    if (req.dry_run) {
      const defaultRate = cappedRatePct(CLASS_TAKER_PCT[live.assetClass], req.leverage);
      return {
        ok: true,
        dry_run: true,
        position: {
          symbol: live.symbol,
          asset_class: live.assetClass,
          side: req.side,
          entry: priced.entry,
          entry_price: priced.entry,
          qty: priced.qty,
          quantity: priced.qty,
          margin: req.margin_usd,
          margin_usd: req.margin_usd,
          leverage: req.leverage,
          leverage_max: max,
          notional_usd: roundUsd(priced.notional),
          liq_price: trimNumber(priced.liqPrice),
          liq_distance_pct: trimNumber(priced.liqDistancePct),
          mmr_pct: trimNumber(priced.mmrPct),
          fee_open_usd: trimNumber(priced.feeOpen),
          fee_round_trip_usd: trimNumber(priced.feeRoundTrip),
          fee_rate_pct: trimNumber(priced.ratePct),
          taker_fee_pct: trimNumber(priced.ratePct),
          sl: req.sl ?? null,
          tp: req.tp ?? null,
          ...(base.venue
            ? {
                fee_venue: base.venue.venue,
                fee_vs_default_usd: trimNumber(priced.feeRoundTrip - (2 * priced.notional * defaultRate) / 100),
              }
            : {}),
        },
      };
    }

    const now = clock.now();
    const id = (this.deps.newId ?? (() => defaultPositionId(now)))();
    const trail = req.trail_pct === undefined || req.trail_pct === 0 ? null : req.trail_pct;
    const position: Position = {
      id,
      v: 1,
      account: ctx.book,
      symbol: live.symbol,
      asset_class: live.assetClass,
      side: req.side,
      status: 'open',
      entry: priced.entry,
      entry_price: priced.entry,
      qty: priced.qty,
      margin: req.margin_usd,
      margin_usd: req.margin_usd,
      leverage: req.leverage,
      notional_usd: roundUsd(priced.notional),
      liq_price: trimNumber(priced.liqPrice),
      mmr_pct: trimNumber(priced.mmrPct),
      sl: req.sl ?? null,
      tp: req.tp ?? null,
      trail_pct: trail,
      trail_hwm: trail === null ? null : priced.entry,
      fee_rate_pct: trimNumber(priced.ratePct),
      fee_venue: base.venue?.venue ?? null,
      feeOpen: trimNumber(priced.feeOpen),
      fee_open_usd: trimNumber(priced.feeOpen),
      fee_round_trip_usd: trimNumber(priced.feeRoundTrip),
      opened_ts: now,
      client_order_id: coid,
      source: 'api',
      funding_carry_usd: 0,
      funding_from_ts: now,
    };
    const outcome = await store.open(ref, position, ctx.plan.limits.maxOpenPositions);
    if (outcome.kind === 'cap') {
      throw new AppError('too_many_open', `this book holds ${outcome.open} open positions, the ${ctx.plan.limits.label} plan's cap`, {
        max: ctx.plan.limits.maxOpenPositions,
        open: outcome.open,
      });
    }
    // a reset archived the position this client_order_id opened and then the archive went: nothing to show but that
    if (!outcome.stored) throw new AppError('already_closed', `the position opened with client_order_id ${coid} was closed and archived`, { client_order_id: coid });
    return { ok: true, position: this.view(outcome.stored, live), idempotent: outcome.kind === 'idempotent' };
  }

  /** Sets (number), clears (null) or keeps (absent) the stop-loss, take-profit and trailing stop. */
  async sltp(ctx: KeyContext, req: SltpRequest): Promise<{ ok: true; position: PositionView }> {
    const { store, clock } = this.deps;
    if (req.sl === undefined && req.tp === undefined && req.trail_pct === undefined) {
      throw new AppError('sl_or_tp_required', 'send sl, tp or trail_pct (a number sets it, null clears it)');
    }
    const ref = refOf(ctx);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const read = await store.getOpen(ref, req.id);
      if (!read) throw await this.notOpen(ctx, req.id);
      const p = read.position;
      const wrong = checkLevels(p.side, p.entry, req.sl, req.tp);
      if (wrong) {
        throw new AppError(wrong, `the ${wrong === 'sl_wrong_side' ? 'stop-loss' : 'take-profit'} is on the wrong side of the entry (${p.entry})`, { live: p.entry });
      }
      const trail = req.trail_pct === undefined ? p.trail_pct : req.trail_pct === null || req.trail_pct === 0 ? null : req.trail_pct;
      const updated: Position = {
        ...p,
        v: p.v + 1,
        sl: req.sl === undefined ? p.sl : req.sl,
        tp: req.tp === undefined ? p.tp : req.tp,
        trail_pct: trail,
        trail_hwm: trail === null ? null : (p.trail_hwm ?? p.entry),
      };
      const now = clock.now();
      const outcome = await store.sltp(ref, read, updated, now);
      if (outcome === 'updated') {
        const mark = (await this.deps.prices.marks([p.symbol])).get(p.symbol);
        return { ok: true, position: openView(updated, mark, await fundingOwed(this.deps.funding, updated, now)) };
      }
      if (outcome === 'gone') throw await this.notOpen(ctx, req.id);
    }
    throw new AppError('internal', 'the position kept changing; try again');
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
