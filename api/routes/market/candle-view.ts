import type { Candle } from '../../../shared/market/types.js';

/** Candles as every klines route answers them: time in seconds, oldest first. */
export function candleRows(candles: readonly Candle[]): { time: number; open: number; high: number; low: number; close: number; volume: number }[] {
  return candles.map((c) => ({ time: c.openTime / 1000, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume }));
}
