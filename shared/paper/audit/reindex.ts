/**
 * Rebuilds the per-symbol trigger and resting-order indexes (keys.triggerIndex, keys.orderIndex, keys.orderExpiry) from
 * the positions and orders themselves. Those indexes are hints kept beside the account scripts, under other hash tags:
 * after an unplanned failover or a per-shard restore, a shard may hold positions whose entries were on another one and
 * lost, and their stops would not fire. `npm run cli -- reindex` walks every book and writes each open position's and
 * resting order's entries at their exact levels (TriggerHints.align, OrderHints.align, which read back what changed
 * meanwhile, so it is safe on a live deployment). Entries of positions no longer open are left: the sweep drops them.
 * It also puts every book that holds closed trades in its slot's trade prune index (TradePrune.indexBook): books that
 * closed before the index existed (run it once after that upgrade), or whose entry a failover lost.
 */
import type { RedisClient } from '../../core/redis-client.js';
import { keys } from '../../redis/keys.js';
import { OrderHints } from '../orders/order-hints.js';
import { parseOrder } from '../orders/order-types.js';
import { TradePrune } from '../positions/trade-prune.js';
import { TriggerHints } from '../positions/trigger-hints.js';
import { parsePosition } from '../positions/position-types.js';
import { LedgerReader } from './ledger-reader.js';

export interface ReindexCounts {
  accounts: number;
  books: number;
  positions: number;
  orders: number;
  /** Books holding closed trades, now in the trade prune index. */
  tradeBooks: number;
}

export async function reindexAll(redis: RedisClient): Promise<ReindexCounts> {
  const reader = new LedgerReader(redis);
  const triggers = new TriggerHints(redis);
  const orderHints = new OrderHints(redis);
  // the retention plays no part in indexing
  const prune = new TradePrune(redis, 0);
  const counts: ReindexCounts = { accounts: 0, books: 0, positions: 0, orders: 0, tradeBooks: 0 };
  for (const { accountId } of await reader.accounts()) {
    counts.accounts += 1;
    for (const book of await reader.books(accountId)) {
      counts.books += 1;
      const ref = { accountId, book };
      const open = await redis.hgetall(keys.bookOpen(accountId, book));
      const positions = Object.values(open).map((raw) => ({ ref, position: parsePosition(raw).position, raw }));
      await triggers.align(positions);
      counts.positions += positions.length;
      const ids = await redis.zrange(keys.bookOrders(accountId, book), '0', '-1');
      const data = ids.length === 0 ? [] : await redis.hmget(keys.bookOrderData(accountId, book), ...ids);
      const resting = data.flatMap((raw) => {
        const order = raw === null ? null : parseOrder(raw).order;
        return raw !== null && order?.status === 'open' ? [{ ref, order, raw }] : [];
      });
      // the expiry entries first (align sets the level entries only), then the exact levels
      await orderHints.widen(resting, true);
      await orderHints.align(resting);
      counts.orders += resting.length;
      if (await prune.indexBook(ref)) counts.tradeBooks += 1;
    }
  }
  return counts;
}
