/**
 * Binance USDⓈ-M's trading statistics (`/futures/data/...`) from the derivatives data Perpdesk collects, pure: open
 * interest history per period and the global long/short account ratio. What is not collected (top traders' ratios,
 * taker buy/sell volumes) is refused by the routes, not guessed.
 */
import type { AccountRatioView } from '../derivatives/derivatives-store.js';
import { decimal, KLINE_INTERVALS } from './market-shapes.js';

/** Binance's kline intervals its statistics have no period of. */
const NO_DATA_PERIOD: ReadonlySet<string> = new Set(['1m', '3m', '8h']);
/** Binance's periods of the statistics, in minutes: its kline intervals (KLINE_INTERVALS) but 1m, 3m and 8h. */
export const DATA_PERIODS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(KLINE_INTERVALS).filter(([period]) => !NO_DATA_PERIOD.has(period)),
);

const MINUTE_MS = 60_000;

export interface OiSample {
  ts: number;
  oiUsd: number;
}

export interface OiPoint {
  /** The period boundary the value stands at. */
  timestamp: number;
  oiUsd: number;
}

/**
 * Open interest at each period boundary: the last sample at or before it, within the period before it (a boundary
 * with no sample in that period has no row). Boundaries after `now` are not reached yet. Oldest first.
 */
export function oiAtBoundaries(samples: readonly OiSample[], periodMinutes: number, now: number): OiPoint[] {
  const period = periodMinutes * MINUTE_MS;
  const last = new Map<number, OiSample>();
  for (const s of samples) {
    const boundary = Math.ceil(s.ts / period) * period;
    const seen = last.get(boundary);
    if (boundary <= now && (!seen || s.ts >= seen.ts)) last.set(boundary, s);
  }
  return [...last.entries()].sort(([a], [b]) => a - b).map(([timestamp, s]) => ({ timestamp, oiUsd: s.oiUsd }));
}

/** Binance's window rules: from startTime forward, else the newest `limit` (up to endTime). */
export function pageOf<T extends { timestamp: number }>(
  rows: readonly T[],
  q: { startTime?: number; endTime?: number; limit: number },
): T[] {
  const within = rows.filter(
    (r) => (q.startTime === undefined || r.timestamp >= q.startTime) && (q.endTime === undefined || r.timestamp <= q.endTime),
  );
  return q.startTime === undefined ? within.slice(-q.limit) : within.slice(0, q.limit);
}

/** One openInterestHist row: the quantity in coins at `price`, the value in USD. */
export function openInterestRow(symbol: string, point: OiPoint, price: number) {
  return {
    symbol,
    sumOpenInterest: decimal(price > 0 ? point.oiUsd / price : 0, 8),
    sumOpenInterestValue: decimal(point.oiUsd, 8),
    timestamp: point.timestamp,
  };
}

/** One globalLongShortAccountRatio row from an account-ratio view (percent to fractions, as Binance answers). */
export function accountRatioRow(symbol: string, view: AccountRatioView) {
  return {
    symbol,
    longShortRatio: decimal(view.ratio, 4),
    longAccount: decimal(view.longPct / 100, 4),
    shortAccount: decimal(view.shortPct / 100, 4),
    timestamp: view.ts,
  };
}
