/**
 * The minute sweep's resting-order step: a closed 1-minute candle fills the orders whose level its
 * [low, high] reached. It runs before the position triggers; a position a fill opens is stamped with
 * the candle's minute, and the triggers leave it to the next candle and the live sweep (one bar cannot
 * tell whether its extremes came before or after the fill).
 */
import type { Clock } from '../../core/clock.js';
import { findFeeVenue } from '../../engine/fees.js';
import { candleFills, candleReaches, reachOf } from '../../engine/order-rules.js';
import type { SweepJob } from '../../queues/job-types.js';
import { baseOf } from '../../market/canonical-symbol.js';
import type { PlanStore } from '../accounts/plan-store.js';
import { effectivePlan } from '../plans.js';
import { buildPosition, priceEntry, type EntryTerms } from '../positions/position-builder.js';
import { defaultPositionId, MAX_ATTEMPTS } from '../positions/position-deps.js';
import type { BookRef, Position } from '../positions/position-types.js';
import { mayBeStoring } from '../timed-ids.js';
import type { IndexedOrder, OrderTarget } from './order-hints.js';
import type { OrderStore } from './order-store.js';
import { parseOrderMember, type Order, type StoredOrder } from './order-types.js';

export interface FillSummary {
  filled: number;
  /** Reached but rejected: the book held its cap of open positions, or a position of the symbol on the other side. */
  blocked: number;
}

export interface OrderSweepDeps {
  store: OrderStore;
  /** The open-position cap of the account's plan now. */
  openCap(accountId: string): Promise<number>;
  clock: Clock;
}

/** The entry an order makes when it fills (the terms it was placed or last modified with). */
function orderEntryTerms(o: Order): EntryTerms {
  return {
    symbol: o.symbol,
    assetClass: o.asset_class,
    side: o.side,
    margin: o.margin_usd,
    leverage: o.leverage,
    sl: o.sl,
    tp: o.tp,
    trailPct: o.trail_pct,
    venue: o.fee_venue === null ? undefined : findFeeVenue(o.fee_venue),
    mmrPct: o.mmr_pct ?? undefined,
    takerBps: o.taker_bps,
    fundingMult: o.funding_mult,
  };
}

/**
 * What a fill writes: the position at the level, stamped with the candle's minute, and the order filled or rejected (open cap, one-way
 * mode).
 */
export function fillResult(
  ref: BookRef,
  o: Order,
  minute: number,
  now: number,
  positionId: string,
  openCap: number,
): { position: Position; filled: Order; rejected: Order; oneWay: Order } {
  const terms = orderEntryTerms(o);
  const position = buildPosition(terms, priceEntry(terms, o.limit_price, 'the limit_price'), {
    id: positionId,
    book: ref.book,
    openedTs: minute,
    clientOrderId: o.client_order_id,
  });
  if (o.realism) position.realism = o.realism;
  const at = new Date(minute).toISOString();
  const other = o.side === 'long' ? 'short' : 'long';
  return {
    position,
    filled: { ...o, status: 'filled', position_id: positionId, filled_ts: minute, done_ts: now },
    rejected: {
      ...o,
      status: 'rejected',
      done_ts: now,
      note:
        `not filled: the market reached ${o.limit_price} in the minute of ${at}, but the book already held its cap of ${openCap} ` +
        `open positions`,
    },
    oneWay: {
      ...o,
      status: 'rejected',
      done_ts: now,
      note:
        `not filled: the market reached ${o.limit_price} in the minute of ${at}, but the book held an open ${other} on ` +
        `${baseOf(o.symbol)}; one-way mode: close it before a ${o.side} entry fills`,
    },
  };
}

export class OrderSweep {
  constructor(private readonly deps: OrderSweepDeps) {}

  /**
   * Fills (or rejects at the open cap or by one-way mode) every resting order of the symbol this candle reached. The
   * index entries it was offered in vain are tidied, in one pipeline each: those of orders no longer
   * resting come out; those of resting orders whose level the candle did not reach (early entries:
   * a level moved away by a modify) are set to their levels (OrderHints.align).
   */
  async fillCandle(job: SweepJob, reqId?: string): Promise<FillSummary> {
    const { store } = this.deps;
    const hits = await store.candidates(job.symbol, job.low, job.high);
    const found = await Promise.all(
      hits.map(async (hit) => {
        const hint = parseOrderMember(hit.member);
        return hint ? { ...hint, reach: hit.reach, read: await store.get(hint.ref, hint.orderId) } : null;
      }),
    );
    const now = this.deps.clock.now();
    const resting: { ref: BookRef; read: StoredOrder }[] = [];
    const left: IndexedOrder[] = [];
    for (const f of found) {
      if (!f) continue;
      if (f.read && f.read.order.status === 'open') resting.push({ ref: f.ref, read: f.read });
      // an order not found may be one being placed right now (its entries go in just before its script): it is left alone a while
      else if (f.read || !mayBeStoring('lo', f.orderId, now))
        left.push({ ref: f.ref, orderId: f.orderId, symbol: job.symbol, reach: f.reach });
    }
    await store.dropHints(left);
    // oldest first: when a book's open cap runs out within one candle, the earlier orders fill
    resting.sort((a, b) => a.read.order.placed_ts - b.read.order.placed_ts || (a.read.order.order_id < b.read.order.order_id ? -1 : 1));
    const summary: FillSummary = { filled: 0, blocked: 0 };
    const early: (OrderTarget & { raw: string })[] = [];
    const failures: unknown[] = [];
    for (const { ref, read } of resting) {
      try {
        // the fill names the sweep job it is made for (BookRef.reqId)
        const outcome = await this.fillOne(reqId === undefined ? ref : { ...ref, reqId }, read, job);
        if (outcome.kind === 'filled') summary.filled++;
        if (outcome.kind === 'rejected') summary.blocked++;
        if (outcome.kind === 'unreached') early.push({ ref, order: outcome.read.order, raw: outcome.read.raw });
      } catch (error) {
        failures.push(error); // the other orders still fill; the job fails afterwards and is retried
      }
    }
    await store.align(early);
    if (failures.length > 0)
      throw new AggregateError(failures, `${failures.length} orders of ${job.symbol} at ${job.minute} could not be filled`);
    return summary;
  }

  /** unreached: the order as last read, resting, with a level out of the candle's range. */
  private async fillOne(
    ref: BookRef,
    first: StoredOrder,
    job: SweepJob,
  ): Promise<{ kind: 'filled' | 'rejected' | 'skipped' } | { kind: 'unreached'; read: StoredOrder }> {
    const { store, clock } = this.deps;
    let read: StoredOrder | null = first;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && read && read.order.status === 'open'; attempt++) {
      const o: Order = read.order;
      const reach = reachOf(o.type, o.side);
      if (!candleReaches(reach, o.limit_price, job)) return { kind: 'unreached', read };
      if (!candleFills({ reach, level: o.limit_price, watermark: o.fills_from_ts }, job)) return { kind: 'skipped' };
      const now = clock.now();
      const openCap = await this.deps.openCap(ref.accountId);
      const id = defaultPositionId(now);
      const outcome = await store.fill({ ref, read, ...fillResult(ref, o, job.minute, now, id, openCap), openCap, now });
      if (outcome.kind === 'filled' || outcome.kind === 'rejected') return { kind: outcome.kind };
      // stale: modified since read (new level, new watermark), so judge it again; gone: cancelled meanwhile
      read = outcome.kind === 'stale' ? await store.get(ref, o.order_id) : null;
    }
    return { kind: 'skipped' };
  }
}

/** The order step of the sweep over the order store, with the open cap read from the account's plan. */
export function createOrderSweep(deps: { orders: OrderStore; plans: PlanStore; clock: Clock }): OrderSweep {
  const { plans, clock } = deps;
  return new OrderSweep({
    store: deps.orders,
    clock,
    openCap: async (accountId) => effectivePlan(await plans.get(accountId), clock.now()).limits.maxOpenPositions,
  });
}
