/** The Binance dialect's per-symbol leverage setting of a book (its one store): what a MARKET order opens with. */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';

/** Binance's initial leverage of a symbol never set. */
export const DEFAULT_LEVERAGE = 20;

export class LeverageStore {
  constructor(private readonly redis: RedisClient) {}

  /** The book's leverage for each symbol asked (DEFAULT_LEVERAGE where none is set), in one read. */
  async get(accountId: string, book: string, symbols: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (symbols.length === 0) return out;
    const stored = await this.redis.hmget(keys.binanceLeverage(accountId, book), ...symbols);
    symbols.forEach((symbol, i) => out.set(symbol, stored[i] === null ? DEFAULT_LEVERAGE : Number(stored[i])));
    return out;
  }

  async set(accountId: string, book: string, symbol: string, leverage: number): Promise<void> {
    await this.redis.hset(keys.binanceLeverage(accountId, book), symbol, String(leverage));
  }
}
