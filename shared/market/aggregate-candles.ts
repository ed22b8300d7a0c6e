/** Building 5/15/30/60/240/1440-minute candles from 1-minute ones. Pure. */
import type { Candle } from './types.js';

const MINUTE_MS = 60_000;

/**
 * Groups 1m candles into buckets of `intervalMinutes` aligned on the epoch (so 1440 is the UTC day,
 * 240 the UTC 4-hour blocks, as the exchanges do). Per bucket: open of the first candle, close of
 * the last, max of highs, min of lows, sum of volumes. A bucket is closed when its last minute is
 * present and closed. Input order does not matter; the output is oldest first.
 */
export function aggregateCandles(candles1m: readonly Candle[], intervalMinutes: number): Candle[] {
  if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1) {
    throw new RangeError(`intervalMinutes must be a positive integer, got ${intervalMinutes}`);
  }
  const size = intervalMinutes * MINUTE_MS;
  const sorted = [...candles1m].sort((a, b) => a.openTime - b.openTime);
  const out: Candle[] = [];
  let current: Candle | undefined;
  let lastMinute = 0;
  let lastClosed = true;
  const finish = (): void => {
    if (!current) return;
    current.closed = lastClosed && lastMinute === current.openTime + size - MINUTE_MS;
    out.push(current);
  };
  for (const c of sorted) {
    const bucket = Math.floor(c.openTime / size) * size;
    if (!current || current.openTime !== bucket) {
      finish();
      current = { openTime: bucket, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume, closed: false };
    } else {
      current.high = Math.max(current.high, c.high);
      current.low = Math.min(current.low, c.low);
      current.close = c.close;
      current.volume += c.volume;
    }
    lastMinute = c.openTime;
    lastClosed = c.closed;
  }
  finish();
  return out;
}
