/** Redis reads and the state-changing scripts of resting orders. Only this file and its scripts touch order keys. */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { reachOf, type OrderReach } from '../../engine/order-rules.js';
import { keys } from '../../redis/keys.js';
import { IDEMPOTENCY_TTL_S, triggerScores } from '../positions/position-store.js';
import { triggerMember, type BookRef, type Position } from '../positions/position-types.js';
import { runOrderScript } from './lua/order-scripts.js';
import { expiryMember, orderMember, ORDERS_DONE_KEPT, parseOrder, type Order, type StoredOrder } from './order-types.js';

export type PlaceOutcome =
  | { kind: 'placed'; stored: StoredOrder }
  /** The order this client_order_id placed; null when it is done and no longer kept. */
  | { kind: 'idempotent'; stored: StoredOrder | null }
  | { kind: 'cap'; resting: number };

/** applied; stale: the order changed since it was read; gone: it is not resting any more. */
export type ChangeOutcome = 'applied' | 'stale' | 'gone';

export type FillOutcome = { kind: 'filled' } | { kind: 'rejected'; open: number } | { kind: 'stale' } | { kind: 'gone' };

export interface FillWrite {
  ref: BookRef;
  read: StoredOrder;
  filled: Order;
  /** What the order becomes instead when the book holds its cap of open positions. */
  rejected: Order;
  position: Position;
  openCap: number;
  now: number;
}

/** A candidate found in a symbol's order index. */
export interface IndexHit {
  member: string;
  reach: OrderReach;
}

/** What the scripts compare an order by: the SHA-1 of its JSON as read (Lua's redis.sha1hex). */
const digest = (raw: string): string => createHash('sha1').update(raw).digest('hex');

/** The key a script is given for an idempotency slot that is not used (any key of the account). */
const unusedSlot = (ref: BookRef): string => keys.bookOrders(ref.accountId, ref.book);

const reachOfOrder = (o: Order): OrderReach => reachOf(o.type, o.side);

/** The statuses a resting order leaves the book with through order-close.lua (which writes the event of each). */
export type CloseStatus = 'cancelled' | 'expired';

/** KEYS of order-close.lua for an order of the book. */
export function closeKeys(ref: BookRef, o: Order): string[] {
  return [
    keys.bookOrders(ref.accountId, ref.book),
    keys.bookOrderData(ref.accountId, ref.book),
    keys.bookOrdersDone(ref.accountId, ref.book),
    keys.accountOutbox(ref.accountId),
    keys.orderIndex(o.symbol, reachOfOrder(o)),
    keys.orderExpiry(),
  ];
}

/** ARGV[1..8] of order-close.lua (the status follows). */
export function closeArgs(ref: BookRef, read: StoredOrder, done: Order, now: number): (string | number)[] {
  const o = read.order;
  return [o.order_id, digest(read.raw), JSON.stringify(done), orderMember(ref, o.order_id), expiryMember(ref, o.order_id, o.symbol, reachOfOrder(o)), ref.book, now, ORDERS_DONE_KEPT];
}

export class OrderStore {
  constructor(private readonly redis: Redis) {}

  async get(ref: BookRef, orderId: string): Promise<StoredOrder | null> {
    const raw = await this.redis.hget(keys.bookOrderData(ref.accountId, ref.book), orderId);
    return raw === null ? null : parseOrder(raw);
  }

  /** The order a client_order_id placed, as it stands now; null when unused (or no longer kept). */
  async findIdempotent(ref: BookRef, clientOrderId: string): Promise<StoredOrder | null> {
    const id = await this.redis.get(keys.bookIdempotency(ref.accountId, ref.book, 'order', clientOrderId));
    return id === null ? null : this.get(ref, id);
  }

  /** The book's resting orders, oldest first. */
  async listResting(ref: BookRef): Promise<Order[]> {
    return this.many(ref, await this.redis.zrange(keys.bookOrders(ref.accountId, ref.book), '0', '-1'));
  }

  /** The book's last done orders, newest first. */
  async listRecent(ref: BookRef, limit: number): Promise<Order[]> {
    return this.many(ref, await this.redis.zrevrange(keys.bookOrdersDone(ref.accountId, ref.book), '0', String(limit - 1)));
  }

  private async many(ref: BookRef, ids: string[]): Promise<Order[]> {
    if (ids.length === 0) return [];
    const raws = await this.redis.hmget(keys.bookOrderData(ref.accountId, ref.book), ...ids);
    return raws.filter((raw): raw is string => raw !== null).map((raw) => parseOrder(raw).order);
  }

  async place(ref: BookRef, order: Order, cap: number): Promise<PlaceOutcome> {
    const coid = order.client_order_id;
    const reach = reachOfOrder(order);
    const [status, value] = await runOrderScript(
      this.redis,
      'pdOrderPlace',
      [
        keys.bookOrders(ref.accountId, ref.book),
        keys.bookOrderData(ref.accountId, ref.book),
        coid === null ? unusedSlot(ref) : keys.bookIdempotency(ref.accountId, ref.book, 'order', coid),
        keys.orderIndex(order.symbol, reach),
        keys.orderExpiry(),
      ],
      [
        order.order_id,
        JSON.stringify(order),
        cap,
        coid === null ? 0 : 1,
        IDEMPOTENCY_TTL_S,
        order.placed_ts,
        orderMember(ref, order.order_id),
        order.limit_price,
        expiryMember(ref, order.order_id, order.symbol, reach),
        order.expires_ts,
      ],
    );
    if (status === 1) return { kind: 'placed', stored: parseOrder(String(value)) };
    if (status === 2) return { kind: 'idempotent', stored: parseOrder(String(value)) };
    if (status === 3) return { kind: 'idempotent', stored: null };
    return { kind: 'cap', resting: Number(value) };
  }

  async modify(ref: BookRef, read: StoredOrder, updated: Order): Promise<ChangeOutcome> {
    const o = read.order;
    const [status] = await runOrderScript(
      this.redis,
      'pdOrderModify',
      [keys.bookOrders(ref.accountId, ref.book), keys.bookOrderData(ref.accountId, ref.book), keys.orderIndex(o.symbol, reachOfOrder(o))],
      [o.order_id, digest(read.raw), JSON.stringify(updated), orderMember(ref, o.order_id), updated.limit_price],
    );
    return status === 1 ? 'applied' : status === -1 ? 'stale' : 'gone';
  }

  /** Cancels (cancel_order) a resting order: event order.cancelled. */
  cancel(ref: BookRef, read: StoredOrder, cancelled: Order, now: number): Promise<ChangeOutcome> {
    return this.close('cancelled', ref, read, cancelled, now);
  }

  /** Expires a resting order: event order.expired. */
  expire(ref: BookRef, read: StoredOrder, expired: Order, now: number): Promise<ChangeOutcome> {
    return this.close('expired', ref, read, expired, now);
  }

  /** A resting order leaves the book as `status` (order-close.lua), with that status's event. */
  private async close(status: CloseStatus, ref: BookRef, read: StoredOrder, done: Order, now: number): Promise<ChangeOutcome> {
    const [reply, refusal] = await runOrderScript(this.redis, 'pdOrderClose', closeKeys(ref, read.order), [...closeArgs(ref, read, done, now), status]);
    if (reply === -3) throw new Error(`script pdOrderClose refused ${status}: ${String(refusal)}`);
    return reply === 1 ? 'applied' : reply === -1 ? 'stale' : 'gone';
  }

  /** Fills a resting order and opens its position in one step, or rejects it when the book holds its open cap. */
  async fill(write: FillWrite): Promise<FillOutcome> {
    const { ref, read, position } = write;
    const o = read.order;
    const reach = reachOfOrder(o);
    // indexed exactly as position-open.lua indexes a market open
    const scores = triggerScores(position);
    const [status, value] = await runOrderScript(
      this.redis,
      'pdOrderFill',
      [
        keys.bookOrders(ref.accountId, ref.book),
        keys.bookOrderData(ref.accountId, ref.book),
        keys.bookOrdersDone(ref.accountId, ref.book),
        keys.bookOpen(ref.accountId, ref.book),
        keys.accountOutbox(ref.accountId),
        keys.paperBooks(ref.accountId),
        keys.triggerIndex(position.symbol, 'liq', position.side),
        keys.triggerIndex(position.symbol, 'sl', position.side),
        keys.triggerIndex(position.symbol, 'tp', position.side),
        keys.triggerIndex(position.symbol, 'trail', position.side),
        keys.orderIndex(o.symbol, reach),
        keys.orderExpiry(),
      ],
      [
        o.order_id,
        digest(read.raw),
        JSON.stringify(write.filled),
        JSON.stringify(write.rejected),
        position.id,
        JSON.stringify(position),
        write.openCap,
        triggerMember(ref, position.id),
        position.liq_price,
        scores.stop,
        position.tp ?? '',
        scores.trail,
        orderMember(ref, o.order_id),
        expiryMember(ref, o.order_id, o.symbol, reach),
        ref.book,
        write.now,
        ORDERS_DONE_KEPT,
      ],
    );
    if (status === 1) return { kind: 'filled' };
    if (status === 2) return { kind: 'rejected', open: Number(value) };
    return status === -1 ? { kind: 'stale' } : { kind: 'gone' };
  }

  /**
   * The orders of a symbol whose level a candle's range reached: down orders at or above the low,
   * up orders at or below the high. Hints: each fill re-checks its order.
   */
  async candidates(symbol: string, low: number, high: number): Promise<IndexHit[]> {
    const [down, up] = await Promise.all([
      this.redis.zrangebyscore(keys.orderIndex(symbol, 'down'), low, '+inf'),
      this.redis.zrangebyscore(keys.orderIndex(symbol, 'up'), '-inf', high),
    ]);
    return [...down.map((member): IndexHit => ({ member, reach: 'down' })), ...up.map((member): IndexHit => ({ member, reach: 'up' }))];
  }

  /** Expiry index members due at `now`, at most `limit`. */
  due(now: number, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(keys.orderExpiry(), '-inf', now, 'LIMIT', 0, limit);
  }

  /** Drops the index entries of an order that is not resting any more (a reset leaves them behind). */
  async dropHints(ref: BookRef, orderId: string, symbol: string, reach: OrderReach): Promise<void> {
    await Promise.all([
      this.redis.zrem(keys.orderIndex(symbol, reach), orderMember(ref, orderId)),
      this.redis.zrem(keys.orderExpiry(), expiryMember(ref, orderId, symbol, reach)),
    ]);
  }
}
