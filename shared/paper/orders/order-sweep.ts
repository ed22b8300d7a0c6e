/**
 * The minute sweep's resting-order step: a closed 1-minute candle fills the orders whose level its
 * [low, high] reached. It runs before the position triggers; a position a fill opens is stamped with
 * the candle's minute, and the triggers leave it to the next candle and the live sweep (one bar cannot
 * tell whether its extremes came before or after the fill).
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.js';
import { findFeeVenue } from '../../engine/fees.js';
import { candleFills, reachOf } from '../../engine/order-rules.js';
import type { SweepJob } from '../../queues/job-types.js';
import { PlanStore } from '../accounts/plan-store.js';
import { effectivePlan } from '../plans.js';
import { buildPosition, priceEntry, type EntryTerms } from '../positions/position-builder.js';
import { defaultPositionId, MAX_ATTEMPTS } from '../positions/position-deps.js';
import type { BookRef, Position } from '../positions/position-types.js';
import { OrderStore } from './order-store.js';
import { parseOrderMember, type Order, type StoredOrder } from './order-types.js';

export interface FillSummary {
  filled: number;
  /** Reached but rejected: the book held its cap of open positions. */
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
  };
}

/** What a fill writes: the position at the level, stamped with the candle's minute, and the order filled or rejected. */
export function fillResult(ref: BookRef, o: Order, minute: number, now: number, positionId: string, openCap: number): { position: Position; filled: Order; rejected: Order } {
  const terms = orderEntryTerms(o);
  const position = buildPosition(terms, priceEntry(terms, o.limit_price, 'the limit_price'), {
    id: positionId,
    book: ref.book,
    openedTs: minute,
    clientOrderId: o.client_order_id,
  });
  const at = new Date(minute).toISOString();
  return {
    position,
    filled: { ...o, status: 'filled', position_id: positionId, filled_ts: minute, done_ts: now },
    rejected: {
      ...o,
      status: 'rejected',
      done_ts: now,
      note: `not filled: the market reached ${o.limit_price} in the minute of ${at}, but the book already held its cap of ${openCap} open positions`,
    },
  };
}

export class OrderSweep {
  constructor(private readonly deps: OrderSweepDeps) {}

  /** Fills (or rejects at the open cap) every resting order of the symbol this candle reached. */
  async fillCandle(job: SweepJob): Promise<FillSummary> {
    const { store } = this.deps;
    const hits = await store.candidates(job.symbol, job.low, job.high);
    const found = await Promise.all(
      hits.map(async (hit) => {
        const hint = parseOrderMember(hit.member);
        return hint ? { ...hint, reach: hit.reach, read: await store.get(hint.ref, hint.orderId) } : null;
      }),
    );
    const resting: { ref: BookRef; read: StoredOrder }[] = [];
    for (const f of found) {
      if (!f) continue;
      if (f.read && f.read.order.status === 'resting') resting.push({ ref: f.ref, read: f.read });
      else await store.dropHints(f.ref, f.orderId, job.symbol, f.reach);
    }
    // oldest first: when a book's open cap runs out within one candle, the earlier orders fill
    resting.sort((a, b) => a.read.order.placed_ts - b.read.order.placed_ts || (a.read.order.order_id < b.read.order.order_id ? -1 : 1));
    const summary: FillSummary = { filled: 0, blocked: 0 };
    const failures: unknown[] = [];
    for (const { ref, read } of resting) {
      try {
        const outcome = await this.fillOne(ref, read, job);
        if (outcome === 'filled') summary.filled++;
        if (outcome === 'rejected') summary.blocked++;
      } catch (error) {
        failures.push(error); // the other orders still fill; the job fails afterwards and is retried
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} orders of ${job.symbol} at ${job.minute} could not be filled`);
    return summary;
  }

  private async fillOne(ref: BookRef, first: StoredOrder, job: SweepJob): Promise<'filled' | 'rejected' | 'skipped'> {
    const { store, clock } = this.deps;
    let read: StoredOrder | null = first;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && read && read.order.status === 'resting'; attempt++) {
      const o: Order = read.order;
      if (!candleFills({ reach: reachOf(o.type, o.side), level: o.limit_price, watermark: o.fills_from_ts }, job)) return 'skipped';
      const now = clock.now();
      const openCap = await this.deps.openCap(ref.accountId);
      const id = defaultPositionId(now);
      const outcome = await store.fill({ ref, read, ...fillResult(ref, o, job.minute, now, id, openCap), openCap, now });
      if (outcome.kind === 'filled' || outcome.kind === 'rejected') return outcome.kind;
      // stale: modified since read (new level, new watermark), so judge it again; gone: cancelled meanwhile
      read = outcome.kind === 'stale' ? await store.get(ref, o.order_id) : null;
    }
    return 'skipped';
  }
}

/** The order step of the sweep on a connection, with the open cap read from the account's plan. */
export function createOrderSweep(redis: Redis, clock: Clock): OrderSweep {
  const plans = new PlanStore(redis);
  return new OrderSweep({
    store: new OrderStore(redis),
    clock,
    openCap: async (accountId) => effectivePlan(await plans.get(accountId), clock.now()).limits.maxOpenPositions,
  });
}
