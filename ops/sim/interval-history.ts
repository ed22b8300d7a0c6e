/**
 * Candles longer than a minute for the sim's Binance klines: the minutes the model holds are
 * aggregated, and older buckets, which the model never had, are a deterministic random walk
 * backwards from the oldest held price (same symbol and interval, same candles), so daily and
 * weekly history of any depth exists offline.
 */
import { KLINE_INTERVALS } from '../../shared/binance/market-shapes.js';
import type { Candle } from './market-model.js';
import { MINUTE } from './market-time.js';
import { createRng } from './prng.js';

/** Binance interval names the sim answers beyond the minute, in minutes: the dialect's, and 3d and 1w. */
export const BINANCE_INTERVALS: Record<string, number> = {
  ...Object.fromEntries(Object.entries(KLINE_INTERVALS).filter(([name]) => name !== '1m')),
  '3d': 4320,
  '1w': 10080,
};

/** Binance weeks start on Monday 00:00 UTC; the epoch was a Thursday. */
const WEEK_OFFSET = 4 * 1440 * MINUTE;
/** A synthetic walk longer than this many buckets is refused rather than computed. */
const MAX_SYNTHETIC_STEPS = 20_000;

export function bucketStart(t: number, minutes: number): number {
  const size = minutes * MINUTE;
  const offset = minutes === 10080 ? WEEK_OFFSET : 0;
  return Math.floor((t - offset) / size) * size + offset;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function aggregate(minutes1m: readonly Candle[], minutes: number): Candle[] {
  const out: Candle[] = [];
  for (const c of minutes1m) {
    const t = bucketStart(c.t, minutes);
    const last = out[out.length - 1];
    if (last && last.t === t) {
      last.h = Math.max(last.h, c.h);
      last.l = Math.min(last.l, c.l);
      last.c = c.c;
      last.v += c.v;
      last.q += c.q;
      last.n += c.n;
    } else out.push({ ...c, t });
  }
  return out;
}

/**
 * Up to `limit` candles of `minutes` whose open time is <= end (or >= start when only start is
 * given), oldest first. `held` is every 1m candle the model has, oldest first.
 */
export function intervalCandles(
  symbol: string,
  minutes: number,
  held: readonly Candle[],
  query: { start?: number; end?: number; limit: number; now: number },
): Candle[] | null {
  const size = minutes * MINUTE;
  const real = aggregate(held, minutes);
  const oldest = real[0];
  if (!oldest) return [];
  const lastBucket = bucketStart(query.now, minutes);
  const end = Math.min(query.end !== undefined ? bucketStart(query.end, minutes) : lastBucket, lastBucket);
  const first = query.start !== undefined && query.end === undefined ? bucketStart(query.start, minutes) : end - (query.limit - 1) * size;
  const last = Math.min(end, first + (query.limit - 1) * size);
  const stepsBack = Math.max(0, Math.round((oldest.t - first) / size));
  if (stepsBack > MAX_SYNTHETIC_STEPS) return null;
  // walk back from the oldest held bucket: synthetic[k] is the bucket k steps before it
  const rng = createRng(hash(`${symbol}:${minutes}`));
  const synthetic = new Map<number, Candle>();
  let close = oldest.o;
  const volatility = 0.002 * Math.sqrt(minutes);
  const volume = real.reduce((sum, c) => sum + c.v, 0) / real.length;
  for (let k = 1; k <= stepsBack; k++) {
    const open = close * Math.exp(volatility * rng.gauss());
    const high = Math.max(open, close) * (1 + Math.abs(volatility * rng.gauss()) / 2);
    const low = Math.min(open, close) * (1 - Math.abs(volatility * rng.gauss()) / 2);
    const t = oldest.t - k * size;
    const v = volume * (0.5 + rng.next());
    synthetic.set(t, { t, o: open, h: high, l: low, c: close, v, q: v * close, n: Math.round(v * 10), f: 0 });
    close = open;
  }
  const byTime = new Map(real.map((c) => [c.t, c]));
  const out: Candle[] = [];
  for (let t = first; t <= last; t += size) {
    const candle = byTime.get(t) ?? synthetic.get(t);
    if (candle) out.push(candle);
  }
  return out;
}
