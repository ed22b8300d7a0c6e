import type { MarketService } from '../../../shared/market/market-service.js';
import type { Candle } from '../../../shared/market/types.js';

/** Candles as every klines route answers them: time in seconds, oldest first. */
export function candleRows(
  candles: readonly Candle[],
): { time: number; open: number; high: number; low: number; close: number; volume: number }[] {
  return candles.map((c) => ({ time: c.openTime / 1000, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume }));
}

interface KlinesQuery {
  symbol: string;
  interval: string;
  limit: number;
  end?: number;
}

/** The handler of a klines route; the public and bot routes differ only in the intervals they accept. */
export function klinesHandler(market: MarketService, intervals: Record<string, number>) {
  return async ({ query }: { query: KlinesQuery }) =>
    candleRows(
      await market.candles({ symbol: query.symbol, intervalMinutes: intervals[query.interval], limit: query.limit, endMs: query.end }),
    );
}
