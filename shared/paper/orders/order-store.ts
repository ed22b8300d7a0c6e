/**
 * Redis reads and the state-changing scripts of resting orders. Only this file, its scripts and
 * order-hints.ts (the cross-account order and expiry indexes, written around the scripts) touch order keys.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from '../../core/redis-client.js';
import type { OrderReach } from '../../engine/order-rules.js';
import { keys } from '../../redis/keys.js';
import { IDEMPOTENCY_TTL_S } from '../positions/position-calls.js';
import { reqArg, type BookRef, type Position } from '../positions/position-types.js';
import { TriggerHints } from '../positions/trigger-hints.js';
import { orderScripts } from './lua/order-scripts.js';
import { indexedOrder, OrderHints, type IndexedOrder, type OrderTarget } from './order-hints.js';
import { DONE_ORDER_RETENTION, parseOrder, tombstoneKeys, type Order, type OrderStatus, type StoredOrder } from './order-types.js';

export type PlaceOutcome =
  | { kind: 'placed'; stored: StoredOrder }
  /** The order this client_order_id placed; null when it is done and no longer kept. */
  | { kind: 'idempotent'; stored: StoredOrder | null }
  | { kind: 'cap'; resting: number };

/** applied; stale: the order changed since it was read; gone: it is not resting any more. */
export type ChangeOutcome = 'applied' | 'stale' | 'gone';

/** rejected: at the open cap (open: the count), or by one-way mode (opposite: the open position of the symbol on the other side). */
export type FillOutcome =
  { kind: 'filled' } | { kind: 'rejected'; open: number } | { kind: 'rejected'; opposite: string } | { kind: 'stale' } | { kind: 'gone' };

export interface FillWrite {
  ref: BookRef;
  read: StoredOrder;
  filled: Order;
  /** What the order becomes instead when the book holds its cap of open positions. */
  rejected: Order;
  /** What it becomes instead when the book holds a position of the symbol on the other side (one-way mode). */
  oneWay: Order;
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

/** The statuses a resting order leaves the book with through order-close.lua (which writes the event of each). */
export type CloseStatus = 'cancelled' | 'expired';

/** KEYS of order-close.lua for an order of the book. */
export function closeKeys(ref: BookRef): string[] {
  return [
    keys.bookOrders(ref.accountId, ref.book),
    keys.bookOrderData(ref.accountId, ref.book),
    keys.bookOrdersDone(ref.accountId, ref.book),
    keys.accountOutbox(ref.accountId),
    ...tombstoneKeys(ref),
    keys.outboxIndex(ref.accountId),
  ];
}

/** ARGV[1..8] of order-close.lua (the status follows). */
export function closeArgs(ref: BookRef, read: StoredOrder, done: Order, now: number): (string | number)[] {
  return [read.order.order_id, digest(read.raw), JSON.stringify(done), ref.book, now, ...DONE_ORDER_RETENTION];
}

export class OrderStore {
  private readonly hints: OrderHints;
  private readonly triggers: TriggerHints;

  constructor(private readonly redis: RedisClient) {
    this.hints = new OrderHints(redis);
    this.triggers = new TriggerHints(redis);
  }

  async get(ref: BookRef, orderId: string): Promise<StoredOrder | null> {
    const raw = await this.redis.hget(keys.bookOrderData(ref.accountId, ref.book), orderId);
    return raw === null ? null : parseOrder(raw);
  }

  /** The final status of a done order that only its tombstone remembers; null when none does. */
  async tombstone(ref: BookRef, orderId: string): Promise<OrderStatus | null> {
    return (await this.redis.hget(keys.bookOrdersGoneStatus(ref.accountId, ref.book), orderId)) as OrderStatus | null;
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

  /**
   * Places a resting order within the book's cap, once per client_order_id. Its index entries go in
   * first, and come out again when the script stored another order (a reused client_order_id) or none.
   */
  async place(ref: BookRef, order: Order, cap: number): Promise<PlaceOutcome> {
    const coid = order.client_order_id;
    const target = { ref, order };
    await this.hints.widen([target], true);
    const [status, value] = await orderScripts.runStatus(this.redis, 'order-place', {
      keys: [
        keys.bookOrders(ref.accountId, ref.book),
        keys.bookOrderData(ref.accountId, ref.book),
        coid === null ? unusedSlot(ref) : keys.bookIdempotency(ref.accountId, ref.book, 'order', coid),
        keys.accountOutbox(ref.accountId),
        keys.outboxIndex(ref.accountId),
      ],
      args: [order.order_id, JSON.stringify(order), cap, coid === null ? 0 : 1, IDEMPOTENCY_TTL_S, order.placed_ts, ref.book, reqArg(ref)],
    });
    if (status === 1) return { kind: 'placed', stored: parseOrder(String(value)) };
    const outcome: PlaceOutcome =
      status === 2
        ? { kind: 'idempotent', stored: parseOrder(String(value)) }
        : status === 3
          ? { kind: 'idempotent', stored: null }
          : { kind: 'cap', resting: Number(value) };
    // only a reused client_order_id answering with this very order still resting (the same order sent again) keeps its entries
    const live =
      outcome.kind === 'idempotent' && outcome.stored?.order.order_id === order.order_id && outcome.stored.order.status === 'open';
    if (!live) await this.hints.remove([indexedOrder(target)]);
    return outcome;
  }

  /**
   * New terms for a resting order. Its order index entry is widened toward the new level first, and
   * set to it once applied; when the order turned out not to be resting any more its entries come out.
   */
  async modify(ref: BookRef, read: StoredOrder, updated: Order): Promise<ChangeOutcome> {
    const o = read.order;
    const raw = JSON.stringify(updated);
    const target = { ref, order: updated };
    await this.hints.widen([target], false);
    const [status] = await orderScripts.runStatus(this.redis, 'order-modify', {
      keys: [keys.bookOrders(ref.accountId, ref.book), keys.bookOrderData(ref.accountId, ref.book)],
      args: [o.order_id, digest(read.raw), raw],
    });
    if (status === 1) {
      await this.hints.align([{ ...target, raw }]);
      return 'applied';
    }
    if (status === -1) return 'stale';
    // done meanwhile: the widening above may have put back an entry its closer had taken out
    await this.hints.remove([indexedOrder(target)]);
    return 'gone';
  }

  /** Cancels (cancel_order) a resting order: event order.cancelled. */
  cancel(ref: BookRef, read: StoredOrder, cancelled: Order, now: number): Promise<ChangeOutcome> {
    return this.close('cancelled', ref, read, cancelled, now);
  }

  /** Expires a resting order: event order.expired. */
  expire(ref: BookRef, read: StoredOrder, expired: Order, now: number): Promise<ChangeOutcome> {
    return this.close('expired', ref, read, expired, now);
  }

  /** A resting order leaves the book as `status` (order-close.lua), with that status's event; then its index entries come out. */
  private async close(status: CloseStatus, ref: BookRef, read: StoredOrder, done: Order, now: number): Promise<ChangeOutcome> {
    const [reply, refusal] = await orderScripts.runStatus(this.redis, 'order-close', {
      keys: closeKeys(ref),
      args: [...closeArgs(ref, read, done, now), status, reqArg(ref)],
    });
    if (reply === -3) throw new Error(`script ${orderScripts.id('order-close')} refused ${status}: ${String(refusal)}`);
    if (reply === -1) return 'stale';
    await this.hints.remove([indexedOrder({ ref, order: read.order })]);
    return reply === 1 ? 'applied' : 'gone';
  }

  /**
   * Fills a resting order and opens its position in one step, or rejects it when the book holds its
   * open cap or a position of the symbol on the other side (one-way mode). The position's trigger
   * entries go in first and come out again unless it opened; the order's entries come out once it
   * left the book.
   */
  async fill(write: FillWrite): Promise<FillOutcome> {
    const { ref, read, position } = write;
    const o = read.order;
    const opened = { ref, position };
    await this.triggers.widen([opened]);
    const [status, value] = await orderScripts.runStatus(this.redis, 'order-fill', {
      keys: [
        keys.bookOrders(ref.accountId, ref.book),
        keys.bookOrderData(ref.accountId, ref.book),
        keys.bookOrdersDone(ref.accountId, ref.book),
        keys.bookOpen(ref.accountId, ref.book),
        keys.accountOutbox(ref.accountId),
        keys.paperBooks(ref.accountId),
        ...tombstoneKeys(ref),
        keys.outboxIndex(ref.accountId),
      ],
      args: [
        o.order_id,
        digest(read.raw),
        JSON.stringify(write.filled),
        JSON.stringify(write.rejected),
        position.id,
        JSON.stringify(position),
        write.openCap,
        ref.book,
        write.now,
        ...DONE_ORDER_RETENTION,
        JSON.stringify(write.oneWay),
        reqArg(ref),
      ],
    });
    const left = status === -1 ? [] : [indexedOrder({ ref, order: o })];
    await Promise.all([this.hints.remove(left), status === 1 ? undefined : this.triggers.remove([opened])]);
    if (status === 1) return { kind: 'filled' };
    if (status === 2) return { kind: 'rejected', open: Number(value) };
    if (status === 3) return { kind: 'rejected', opposite: String(value) };
    return status === -1 ? { kind: 'stale' } : { kind: 'gone' };
  }

  /** Sets the order index entries of resting orders (as read: raw and order) to their exact levels, with a read-back (OrderHints.align). */
  align(stored: readonly (OrderTarget & { raw: string })[]): Promise<void> {
    return this.hints.align(stored);
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

  /** Drops the index entries of orders that are not resting any more (a reset leaves them behind). */
  dropHints(orders: readonly IndexedOrder[]): Promise<void> {
    return this.hints.remove(orders);
  }
}
