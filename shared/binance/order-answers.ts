/**
 * The Binance dialect's answers to orders by newClientOrderId: a retry after the order changed the book (a close
 * whose position is gone) gets the first answer again. The engine's own client_order_id keeps two racing copies of
 * one order from acting twice; this only remembers what was answered, and which newClientOrderId named which orderId
 * (Query Order by origClientOrderId; allOrders lists the day's).
 */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';

/** How long a retry is recognised: a day, as clients retry within seconds. */
const KEEP_MS = 86_400_000;
/** Binance's largest allOrders page: more than a page is never read back. */
const SINCE_MAX = 1000;

export interface AnsweredOrder {
  orderId: string;
  clientOrderId: string;
  answer: Record<string, unknown>;
}

export class OrderAnswers {
  constructor(private readonly redis: RedisClient) {}

  async get(accountId: string, book: string, clientOrderId: string): Promise<Record<string, unknown> | null> {
    const raw = await this.redis.get(keys.binanceOrder(accountId, book, clientOrderId));
    return raw === null ? null : (JSON.parse(raw) as Record<string, unknown>);
  }

  /** The first answer under a newClientOrderId stands; its orderId is logged (the day's older entries dropped). */
  async remember(accountId: string, book: string, clientOrderId: string, answer: Record<string, unknown>, now: number): Promise<void> {
    const orderId = String(answer.orderId);
    const log = keys.binanceOrderLog(accountId, book);
    const ids = keys.binanceOrderIds(accountId, book);
    const old = await this.redis.zrangebyscore(log, 0, now - KEEP_MS);
    const multi = this.redis.multi();
    multi.set(keys.binanceOrder(accountId, book, clientOrderId), JSON.stringify(answer), 'PX', KEEP_MS, 'NX');
    if (old.length > 0) multi.zrem(log, ...old).hdel(ids, ...old);
    multi.zadd(log, now, orderId).hset(ids, orderId, clientOrderId);
    await multi.exec();
  }

  /** The newClientOrderId each orderId was placed with, for the orderIds asked (the ones it knows). */
  async clientIds(accountId: string, book: string, orderIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (orderIds.length === 0) return out;
    const found = await this.redis.hmget(keys.binanceOrderIds(accountId, book), ...orderIds);
    orderIds.forEach((id, i) => {
      const coid = found[i];
      if (coid !== null && coid !== undefined) out.set(id, coid);
    });
    return out;
  }

  /** The last SINCE_MAX orders answered since `sinceTs`, oldest first, with their answers as first given. */
  async since(accountId: string, book: string, sinceTs: number): Promise<AnsweredOrder[]> {
    const newest = await this.redis.zrevrangebyscore(keys.binanceOrderLog(accountId, book), '+inf', sinceTs, 'LIMIT', 0, SINCE_MAX);
    const orderIds = newest.reverse();
    const coids = await this.clientIds(accountId, book, orderIds);
    const rows = await Promise.all(
      orderIds.map(async (orderId) => {
        const clientOrderId = coids.get(orderId);
        const answer = clientOrderId === undefined ? null : await this.get(accountId, book, clientOrderId);
        return answer === null || clientOrderId === undefined ? null : { orderId, clientOrderId, answer };
      }),
    );
    return rows.filter((row): row is AnsweredOrder => row !== null);
  }
}
