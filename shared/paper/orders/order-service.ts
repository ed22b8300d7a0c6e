/** Limit and stop entries: placed through /open, listed, modified and cancelled by their book's keys. */
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { findFeeVenue, type FeeVenue } from '../../engine/fees.js';
import { checkPlacement, expiresAt, LEVEL_MAX_DISTANCE_PCT, reachOf, watermarkAfter, type OrderType } from '../../engine/order-rules.js';
import { fundingMultiplier } from '../../engine/cost-model.js';
import { maintenanceRate } from '../../engine/margin-model.js';
import { effectiveProfile } from '../../engine/realism.js';
import { trimNumber, type Side } from '../../engine/side.js';
import type { SimProfile } from '../../engine/sim-profile.js';
import { baseOf } from '../../market/canonical-symbol.js';
import { changeKey, STALE, type ChangeGate } from '../change-gate.js';
import type { FeeSettings } from '../fees/fee-settings.js';
import type { KeyContext } from '../key-context.js';
import type { EntryPrice, LivePrice, LivePrices } from '../markets/live-prices.js';
import { checkLeverage, dryRunPosition, priceEntry, type EntryTerms } from '../positions/position-builder.js';
import {
  checkNotional,
  entryTerms,
  explicitVenue,
  overridesOf,
  refOf,
  type OpenRequest,
  type OpenResult,
  type RestingOrderPlacer,
} from '../positions/position-service.js';
import type { SimSettings } from '../sim/sim-settings.js';
import type { OrderStore } from './order-store.js';
import { newOrderId, orderView, type Order, type OrderStatus, type StoredOrder } from './order-types.js';

export { newOrderId };

/**
 * The maintenance rate a resting entry keeps for its fill, from the book's margin model at placement
 * (margin_venue, margin_tiers, mmr_pct, with the open's own overrides): as mmr_pct when the model is not
 * the flat 0.5%, so the fill (order-sweep.ts) stamps it as a market open would have. A limit fills at
 * its level, as a maker: no slippage.
 */
/** The cost model a resting entry keeps from its placement (taker_bps, funding), as order fields: only what differs from the tables. */
function restingCosts(profile: SimProfile): Pick<Order, 'taker_bps' | 'funding_mult'> {
  const mult = fundingMultiplier(profile.funding, profile.funding_mult);
  return { ...(profile.taker_bps === null ? {} : { taker_bps: profile.taker_bps }), ...(mult === 1 ? {} : { funding_mult: mult }) };
}

/** The same as entry terms, for pricing the fill at placement (its dry run). */
function restingCostTerms(profile: SimProfile): Pick<EntryTerms, 'takerBps' | 'fundingMult'> {
  const { taker_bps: takerBps, funding_mult: fundingMult } = restingCosts(profile);
  return { takerBps, fundingMult };
}

function restingMargin(req: OpenRequest, profile: SimProfile): Pick<OpenRequest, 'mmr_pct'> {
  const rate = maintenanceRate({
    notional: req.margin_usd * req.leverage,
    leverage: req.leverage,
    venue: profile.margin_venue,
    tiers: profile.margin_tiers,
    overridePct: profile.mmr_pct,
  });
  return rate.base === 'flat' && rate.tier === null ? {} : { mmr_pct: trimNumber(rate.mmrPct) };
}

/** How many done orders /orders shows besides the resting ones. */
export const RECENT_ORDERS = 20;

export interface OrderDeps {
  store: OrderStore;
  prices: LivePrices;
  fees: FeeSettings;
  clock: Clock;
  /** Where a client's changes of one order meet (one at a time per pod, bounded retries across pods). */
  changes: ChangeGate;
  /** The books' simulation profiles: their margin model and limits apply at placement. */
  sim: SimSettings;
}

export interface ModifyOrderRequest {
  order_id: string;
  limit_price?: number;
  /** A number sets, null clears, absent keeps (as in sltp). */
  sl?: number | null;
  tp?: number | null;
  margin_usd?: number;
  leverage?: number;
  /** A number sets (0 turns it off), null clears, absent keeps. */
  trail_pct?: number | null;
}

export interface OrdersResult {
  orders: Order[];
  recent: Order[];
}

const trimmed = (value: number | null | undefined): number | null => (value === null || value === undefined ? null : trimNumber(value));

/**
 * 400 limit_marketable / stop_wrong_side when the level is on the side the market already reached,
 * limit_price_far when it is more than LEVEL_MAX_DISTANCE_PCT away from it.
 */
function refusePlacement(type: OrderType, side: Side, level: number, live: LivePrice): void {
  const refusal = checkPlacement(type, side, level, live.price);
  if (!refusal) return;
  const where = reachOf(type, side) === 'down' ? 'below' : 'above';
  const context = { symbol: baseOf(live.symbol), live: live.price, limit_price: level };
  if (refusal === 'limit_price_far') {
    const message =
      `limit_price ${level} is more than ${LEVEL_MAX_DISTANCE_PCT}% away from the market (${live.price}): it would rest ` +
      `without filling`;
    throw new AppError(refusal, message, { ...context, max_distance_pct: LEVEL_MAX_DISTANCE_PCT });
  }
  const message =
    refusal === 'limit_marketable'
      ? `a limit ${side} rests ${where} the market (${live.price}): limit_price ${level} would fill at once; omit type for a market entry`
      : `a stop ${side} rests ${where} the market (${live.price}): limit_price ${level} is on the wrong side`;
  throw new AppError(refusal, message, context);
}

const notFound = (ctx: KeyContext, orderId: string): AppError =>
  new AppError('not_found', `no order ${orderId} in book ${ctx.book}`, { order_id: orderId });
const alreadyDone = (orderId: string, status: OrderStatus): AppError =>
  new AppError('already_done', `order ${orderId} is already ${status}`, { order_id: orderId, status });

export class OrderService implements RestingOrderPlacer {
  constructor(private readonly deps: OrderDeps) {}

  async place(ctx: KeyContext, req: OpenRequest & { type: OrderType }): Promise<OpenResult> {
    if (req.limit_price === undefined)
      throw new AppError('limit_price_required', `a ${req.type} entry needs limit_price`, { param: 'limit_price' });
    const { store, prices, fees, sim } = this.deps;
    const coid = req.client_order_id ?? null;
    // 12 significant digits, as stored (see Order), before any rule compares them
    const normalized: OpenRequest & { type: OrderType; limit_price: number } = {
      ...req,
      limit_price: trimNumber(req.limit_price),
      margin_usd: trimNumber(req.margin_usd),
      leverage: trimNumber(req.leverage),
      sl: trimmed(req.sl),
      tp: trimmed(req.tp),
      ...(req.trail_pct === undefined ? {} : { trail_pct: trimNumber(req.trail_pct) }),
      ...(req.mmr_pct === undefined ? {} : { mmr_pct: trimNumber(req.mmr_pct) }),
    };
    const named = explicitVenue(req);
    const [live, accountVenue, profile] = await Promise.all([
      prices.settledEntryPrice(req.symbol),
      named === undefined ? fees.venueFor(ctx) : undefined,
      sim.profileOf(ctx),
    ]);
    try {
      if ('error' in live) throw live.error;
      const effective = effectiveProfile(profile, overridesOf(req));
      const withModel = { ...normalized, ...restingMargin(normalized, effective) };
      return await this.rest(ctx, withModel, live.value, named === undefined ? accountVenue : (named ?? undefined), effective);
    } catch (error) {
      // a reused client_order_id answers with its order even when the market has moved since (as market opens do)
      const prior = coid !== null && !req.dry_run && error instanceof AppError ? await store.findIdempotent(refOf(ctx), coid) : null;
      if (prior) return { ok: true, order: orderView(prior.order), idempotent: true };
      throw error;
    }
  }

  private async rest(
    ctx: KeyContext,
    req: OpenRequest & { type: OrderType; limit_price: number },
    live: EntryPrice,
    venue: FeeVenue | undefined,
    profile: SimProfile,
  ): Promise<OpenResult> {
    const level = req.limit_price;
    const terms = entryTerms(req, live, venue);
    refusePlacement(req.type, req.side, level, live);
    checkLeverage(live.symbol, terms.leverage, Math.min(live.maxLeverage, profile.leverage_max));
    checkNotional(terms.margin * terms.leverage, profile.max_notional_usd);
    const entry = priceEntry({ ...terms, ...restingCostTerms(profile) }, level, 'the limit_price');
    if (req.dry_run) {
      const order = {
        type: req.type,
        symbol: baseOf(live.symbol),
        side: req.side,
        limit_price: level,
        direction: reachOf(req.type, req.side),
        would_fill_now: false as const,
      };
      return { ok: true, dry_run: true, order, position_if_filled: dryRunPosition(terms, entry, live.maxLeverage) };
    }

    const now = this.deps.clock.now();
    const coid = req.client_order_id ?? null;
    const order: Order = {
      order_id: newOrderId(now),
      type: req.type,
      account: ctx.book,
      symbol: live.symbol,
      asset_class: live.assetClass,
      side: req.side,
      limit_price: level,
      margin_usd: terms.margin,
      leverage: terms.leverage,
      sl: terms.sl,
      tp: terms.tp,
      trail_pct: terms.trailPct,
      fee_venue: entry.venue?.venue ?? null,
      mmr_pct: terms.mmrPct ?? null,
      realism: { slippage: false, margin_tiers: profile.margin_tiers, margin_venue: profile.margin_venue },
      ...restingCosts(profile),
      client_order_id: coid,
      status: 'open',
      placed_ts: now,
      expires_ts: expiresAt(now),
      fills_from_ts: watermarkAfter(now),
    };
    const max = ctx.plan.limits.maxRestingOrders;
    const outcome = await this.deps.store.place(refOf(ctx), order, max);
    if (outcome.kind === 'cap') {
      throw new AppError('too_many_orders', `this book holds ${outcome.resting} resting orders, the cap`, {
        max,
        resting: outcome.resting,
      });
    }
    if (!outcome.stored)
      throw new AppError('already_done', `the order placed with client_order_id ${coid} is done and no longer kept`, {
        client_order_id: coid,
      });
    return { ok: true, order: orderView(outcome.stored.order), idempotent: outcome.kind === 'idempotent' };
  }

  /** The book's resting orders (oldest first) and its last 20 done ones (newest first). */
  async list(ctx: KeyContext): Promise<OrdersResult> {
    const ref = refOf(ctx);
    const [orders, recent] = await Promise.all([this.deps.store.listResting(ref), this.deps.store.listRecent(ref, RECENT_ORDERS)]);
    return { orders: orders.map(orderView), recent: recent.map(orderView) };
  }

  /**
   * New terms for a resting order: the level is checked against the market now (as at placement),
   * stop and target against the level, and candles before the next minute no longer fill it.
   */
  async modify(ctx: KeyContext, req: ModifyOrderRequest): Promise<{ ok: true; order: Order }> {
    const fields = ['limit_price', 'sl', 'tp', 'margin_usd', 'leverage', 'trail_pct'] as const;
    if (fields.every((name) => req[name] === undefined)) {
      throw new AppError('nothing_to_modify', `send at least one of ${fields.join(', ')}`);
    }
    const ref = refOf(ctx);
    return this.deps.changes.run(changeKey('order', ref, req.order_id), `order ${req.order_id}`, async () => {
      const read = await this.resting(ctx, req.order_id);
      const o = read.order;
      const live = await this.deps.prices.entryPrice(o.symbol);
      const level = req.limit_price === undefined ? o.limit_price : trimNumber(req.limit_price);
      const trail =
        req.trail_pct === undefined ? o.trail_pct : req.trail_pct === null || req.trail_pct === 0 ? null : trimNumber(req.trail_pct);
      const terms = {
        symbol: o.symbol,
        assetClass: o.asset_class,
        side: o.side,
        margin: req.margin_usd === undefined ? o.margin_usd : trimNumber(req.margin_usd),
        leverage: req.leverage === undefined ? o.leverage : trimNumber(req.leverage),
        sl: req.sl === undefined ? o.sl : trimmed(req.sl),
        tp: req.tp === undefined ? o.tp : trimmed(req.tp),
        trailPct: trail,
        venue: o.fee_venue === null ? undefined : findFeeVenue(o.fee_venue),
        mmrPct: o.mmr_pct ?? undefined,
        takerBps: o.taker_bps,
      };
      refusePlacement(o.type, o.side, level, live);
      // a new leverage meets the cap of the moment; the one the order was accepted with stands (the cap moves with volume)
      if (req.leverage !== undefined) checkLeverage(o.symbol, terms.leverage, live.maxLeverage);
      priceEntry(terms, level, 'the limit_price');
      const now = this.deps.clock.now();
      const updated: Order = {
        ...o,
        limit_price: level,
        margin_usd: terms.margin,
        leverage: terms.leverage,
        sl: terms.sl,
        tp: terms.tp,
        trail_pct: trail,
        modified_ts: now,
        fills_from_ts: watermarkAfter(now),
      };
      return (await this.deps.store.modify(ref, read, updated)) === 'applied' ? { ok: true as const, order: orderView(updated) } : STALE;
    });
  }

  async cancel(ctx: KeyContext, req: { order_id: string }): Promise<{ ok: true; order_id: string; status: 'cancelled'; order: Order }> {
    const ref = refOf(ctx);
    return this.deps.changes.run(changeKey('order', ref, req.order_id), `order ${req.order_id}`, async () => {
      const read = await this.resting(ctx, req.order_id);
      const now = this.deps.clock.now();
      const cancelled: Order = { ...read.order, status: 'cancelled', done_ts: now };
      if ((await this.deps.store.cancel(ref, read, cancelled, now)) !== 'applied') return STALE;
      return { ok: true as const, order_id: cancelled.order_id, status: 'cancelled' as const, order: orderView(cancelled) };
    });
  }

  /** The order if it is resting in this book; else 409 already_done once it is done (for 30 days), or 404 not_found. */
  private async resting(ctx: KeyContext, orderId: string): Promise<StoredOrder> {
    const ref = refOf(ctx);
    const read = await this.deps.store.get(ref, orderId);
    if (!read) {
      // done long enough ago to have left the book: its tombstone still knows how it ended
      const status = await this.deps.store.tombstone(ref, orderId);
      throw status ? alreadyDone(orderId, status) : notFound(ctx, orderId);
    }
    if (read.order.status !== 'open') throw alreadyDone(orderId, read.order.status);
    return read;
  }
}
