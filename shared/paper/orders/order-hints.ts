/**
 * The cross-account indexes of resting orders: the per-symbol order index a candle's fill reads
 * (keys.orderIndex, member accountId|book|orderId by limit price) and the expiry index the expiry
 * job reads (keys.orderExpiry, member accountId|book|orderId|symbol|reach by expiry ms). They live
 * under other hash tags than the account's, so no order script writes them: under Redis Cluster
 * they sit in other slots (DESIGN.md principle 3). They are hints, kept by plain commands around
 * the scripts so that an entry is never later than its order's own level or expiry: the readers
 * then find every order, and an early or stale entry costs them one read.
 * - Before a script sets a level: widen, which adds the entry or only moves it toward where its
 *   reader finds it sooner (ZADD GT or LT), so a crash right after the script hides nothing.
 * - Once a script changed a level: align, the exact level, then a read-back: when the order changed
 *   meanwhile, another writer's early entry may have been overwritten, so it is widened again.
 * - Once the order left the book (or was never stored): remove. Order ids are never reused.
 * A reader that finds no order behind an entry drops it, unless the order may be being placed right
 * now (its entries go in just before its script): see mayBeStoring in ../timed-ids.ts.
 */
import type { RedisClient } from '../../core/redis-client.js';
import { reachOf, type OrderReach } from '../../engine/order-rules.js';
import { keys } from '../../redis/keys.js';
import type { BookRef } from '../positions/position-types.js';
import { expiryMember, orderMember, parseOrder, type Order } from './order-types.js';
import { ZsetWrites } from '../../redis/zset-writes.js';

/**
 * Which way an entry moves to be found sooner (OrderStore.candidates and due): a down order is
 * read at or above the candle's low, so higher is sooner; an up order at or below the high, so
 * lower is sooner. The expiry index is read up to now: lower is sooner.
 */
export function soonerFlag(reach: OrderReach): 'GT' | 'LT' {
  return reach === 'down' ? 'GT' : 'LT';
}

export interface OrderTarget {
  ref: BookRef;
  order: Order;
}

/** What names an order's entries (removing them needs no levels). */
export interface IndexedOrder {
  ref: BookRef;
  orderId: string;
  symbol: string;
  reach: OrderReach;
}

export const indexedOrder = ({ ref, order }: OrderTarget): IndexedOrder => ({
  ref,
  orderId: order.order_id,
  symbol: order.symbol,
  reach: reachOf(order.type, order.side),
});

export class OrderHints {
  constructor(private readonly redis: RedisClient) {}

  /** Adds each order's level entry (and its expiry entry with `expiry`), or moves existing ones only toward sooner. */
  async widen(targets: readonly OrderTarget[], expiry: boolean): Promise<void> {
    const writes = new ZsetWrites();
    for (const target of targets) {
      const { ref, order: o } = target;
      const { symbol, reach } = indexedOrder(target);
      writes.add(keys.orderIndex(symbol, reach), soonerFlag(reach), o.limit_price, orderMember(ref, o.order_id));
      if (expiry) writes.add(keys.orderExpiry(), 'LT', o.expires_ts, expiryMember(ref, o.order_id, symbol, reach));
    }
    await writes.send(this.redis);
  }

  /** Takes the orders' members out of the order index of their symbol and out of the expiry index. */
  async remove(orders: readonly IndexedOrder[]): Promise<void> {
    const writes = new ZsetWrites();
    for (const { ref, orderId, symbol, reach } of orders) {
      writes.remove(keys.orderIndex(symbol, reach), orderMember(ref, orderId));
      writes.remove(keys.orderExpiry(), expiryMember(ref, orderId, symbol, reach));
    }
    await writes.send(this.redis);
  }

  /**
   * Sets the level entries of resting orders as stored (their raw JSON) to exactly their levels,
   * then reads them back, in one pipeline (one connection runs it in order, so each read follows
   * its write): one that changed since is widened to its new level, one no longer resting is removed.
   */
  async align(stored: readonly (OrderTarget & { raw: string })[]): Promise<void> {
    if (stored.length === 0) return;
    const exact = new ZsetWrites();
    for (const target of stored) {
      const { ref, order: o } = target;
      const { symbol, reach } = indexedOrder(target);
      exact.add(keys.orderIndex(symbol, reach), null, o.limit_price, orderMember(ref, o.order_id));
    }
    const moved = await exact.sendThenChanged(this.redis, stored, ({ ref, order }) => ({
      key: keys.bookOrderData(ref.accountId, ref.book),
      field: order.order_id,
    }));
    const changed: OrderTarget[] = [];
    const gone: IndexedOrder[] = [];
    for (const { record, now } of moved) {
      const order = now === null ? null : parseOrder(now).order;
      if (order && order.status === 'open') changed.push({ ref: record.ref, order });
      else gone.push(indexedOrder(record));
    }
    await Promise.all([this.widen(changed, false), this.remove(gone)]);
  }
}
