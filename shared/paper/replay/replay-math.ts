/**
 * The arithmetic of a replay of a past UTC day: the day's bounds, the cursor a replay's clock has
 * reached, the price and the bars visible at a cursor (never a minute after it), and the summary at
 * stop. Pure.
 *
 * The clock: a replay started at real time started_at runs its day from start_ts at `speed` replayed
 * milliseconds per real one, so its schedule at real time t is start_ts + speed x (t - started_at),
 * capped at end_ts. The minutes are swept in order by the replay's job; swept_to is the end of the
 * last minute swept (start_ts before the first). The cursor shown is the schedule, held back to the
 * last millisecond of the first minute not yet swept: a minute's candle is never visible, nor its
 * stops settled, before its end, and a lost worker stops the cursor instead of letting it run past
 * minutes nobody swept.
 */
import { aggregateCandles } from '../../market/aggregate-candles.js';
import type { Candle } from '../../market/types.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const REPLAY_SPEED = { min: 1, max: 600, default: 60 } as const;
export const REPLAY_BARS = { min: 1, max: 500, default: 100 } as const;
export const REPLAY_INTERVALS = [1, 5, 15, 60, 240] as const;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC day's first millisecond and the end of its last minute (start + 24 h); null when `day` is not a real YYYY-MM-DD date. */
export function dayBounds(day: string): { startTs: number; endTs: number } | null {
  const match = DAY_PATTERN.exec(day);
  if (!match) return null;
  const startTs = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // Date.UTC rolls 2026-02-30 over to March: a day that does not print back as itself does not exist
  if (!Number.isFinite(startTs) || new Date(startTs).toISOString().slice(0, 10) !== day) return null;
  return { startTs, endTs: startTs + DAY_MS };
}

/** What a replay's clock needs. */
export interface ReplayClockState {
  startTs: number;
  endTs: number;
  speed: number;
  /** Real time the replay started, ms. */
  startedAt: number;
  /** End of the last minute swept (startTs before the first). */
  sweptTo: number;
}

/** Where the schedule is at real time `now`. */
export function scheduledCursor(s: Omit<ReplayClockState, 'sweptTo'>, now: number): number {
  return Math.min(s.endTs, s.startTs + Math.max(0, now - s.startedAt) * s.speed);
}

/** The cursor shown at real time `now`: the schedule, held inside the first minute not yet swept. */
export function visibleCursor(s: ReplayClockState, now: number): number {
  if (s.sweptTo >= s.endTs) return s.endTs;
  return Math.min(scheduledCursor(s, now), s.sweptTo + MINUTE_MS - 1);
}

/** Real time at which the minute ending at `minuteEnd` is due to be swept. */
export function dueAt(s: Omit<ReplayClockState, 'sweptTo'>, minuteEnd: number): number {
  return s.startedAt + Math.ceil((minuteEnd - s.startTs) / s.speed);
}

/** The starts of the minutes due at real time `now` and not swept yet, oldest first. */
export function minutesDue(s: ReplayClockState, now: number): number[] {
  const scheduled = scheduledCursor(s, now);
  const out: number[] = [];
  for (let minute = s.sweptTo; minute + MINUTE_MS <= scheduled; minute += MINUTE_MS) out.push(minute);
  return out;
}

export function progressPct(startTs: number, endTs: number, cursor: number): number {
  return Math.round(((cursor - startTs) / (endTs - startTs)) * 10_000) / 100;
}

/** The candles (oldest first) whose minute has ended at `cursor`. */
export function candlesUpTo(candles: readonly Candle[], cursor: number): Candle[] {
  let n = 0;
  while (n < candles.length && candles[n].openTime + MINUTE_MS <= cursor) n++;
  return candles.slice(0, n);
}

/** The price at the cursor: the close of the last minute ended by then, or the day's first open before any has. */
export function priceAt(candles: readonly Candle[], cursor: number): number {
  const seen = candlesUpTo(candles, cursor);
  return seen.length > 0 ? seen[seen.length - 1].close : candles[0].open;
}

export interface ReplayBar {
  /** Open time, seconds. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * The last `bars` bars of `intervalMinutes` built from the minutes ended at the cursor: the bar the
 * cursor is in holds only those, so it shows nothing of the minutes after it.
 */
export function barsAt(candles: readonly Candle[], cursor: number, intervalMinutes: number, bars: number): ReplayBar[] {
  return aggregateCandles(candlesUpTo(candles, cursor), intervalMinutes)
    .slice(-bars)
    .map((c) => ({ time: c.openTime / 1000, open: c.open, high: c.high, low: c.low, close: c.close }));
}

/** What the journal's counters say at stop. */
export interface JournalTotals {
  closed: number;
  wins: number;
  losses: number;
  liquidations: number;
  realizedCents: number;
  startingBalance: number;
}

export interface ReplaySummaryNumbers {
  closes: number;
  wins: number;
  losses: number;
  win_rate_pct: number;
  pnl_usd: number;
  return_pct: number;
  liquidations: number;
}

/**
 * The stop summary's numbers. Worked example: 4 closes, 3 wins, realized 125.50 on 10000 ->
 * win_rate_pct 75, pnl_usd 125.5, return_pct 1.255 -> 1.26 (two decimals).
 */
export function summaryNumbers(t: JournalTotals): ReplaySummaryNumbers {
  const pnl = t.realizedCents / 100;
  return {
    closes: t.closed,
    wins: t.wins,
    losses: t.losses,
    win_rate_pct: t.closed === 0 ? 0 : Math.round((t.wins / t.closed) * 10_000) / 100,
    pnl_usd: pnl,
    return_pct: Math.round((pnl / t.startingBalance) * 10_000) / 100,
    liquidations: t.liquidations,
  };
}
