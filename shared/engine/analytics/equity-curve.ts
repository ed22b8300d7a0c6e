/**
 * The equity curve of a book from its running totals: the grid of points a window asks for, the
 * points from the cumulative realized P&L and close count sampled at each of them, and the largest
 * drawdown. Pure: the samples and `now` are passed in.
 */
import { trimNumber } from '../side.js';
import { MINUTE_MS } from './close-facts.js';

export const EQUITY_DAYS = { min: 1, max: 90, default: 30 } as const;
export const EQUITY_STEP_MIN = { min: 5, max: 1440 } as const;
/** Windows up to this many days default to hourly points, longer ones to 4-hourly. */
const HOURLY_UP_TO_DAYS = 14;

export function defaultStepMin(days: number): number {
  return days <= HOURLY_UP_TO_DAYS ? 60 : 240;
}

export interface EquityGrid {
  /** Time of the first point, ms. */
  first: number;
  stepMs: number;
  /** Points on the grid (before the reset cut). */
  count: number;
}

/**
 * The points of a window: the last one at the end of the current minute (every close so far
 * counts), one every `stepMin` minutes back to the window's start `days` before it.
 * Worked example: now 10:07:30, days 1, step 60 -> the last point 10:08:00, 25 points back to
 * 10:08:00 the day before.
 */
export function equityGrid(now: number, days: number, stepMin: number): EquityGrid {
  const end = Math.ceil(now / MINUTE_MS) * MINUTE_MS;
  const stepMs = stepMin * MINUTE_MS;
  const count = Math.floor((days * 1440) / stepMin) + 1;
  return { first: end - (count - 1) * stepMs, stepMs, count };
}

/** The running totals of a book at one time: realized P&L since its reset (cents) and closes since it. */
export interface RunningTotal {
  cents: number;
  closes: number;
}

export interface EquityPoint {
  t: number;
  realized_pnl_usd: number;
  equity_usd: number;
  /** Closes in the step that ends at t. */
  closes: number;
}

export interface CurveInput {
  grid: EquityGrid;
  /**
   * The running total just before each grid time, plus one more first: the total just before the
   * time one step ahead of the grid (count + 1 samples), so the first point knows its step's closes.
   */
  samples: readonly RunningTotal[];
  startingBalanceUsd: number;
  /** The book's last reset (ms; 0 for none): the curve restarts there. */
  resetTs: number;
}

/**
 * The points of the curve. Grid times at or before the reset are dropped and the curve starts with
 * a point at the reset itself (realized 0, equity the starting balance), when it falls in the window.
 */
export function equityPoints({ grid, samples, startingBalanceUsd, resetTs }: CurveInput): EquityPoint[] {
  const startCents = Math.round(startingBalanceUsd * 100);
  const points: EquityPoint[] = [];
  if (resetTs >= grid.first && resetTs <= grid.first + (grid.count - 1) * grid.stepMs) {
    points.push({ t: resetTs, realized_pnl_usd: 0, equity_usd: startCents / 100, closes: 0 });
  }
  for (let k = 0; k < grid.count; k++) {
    const t = grid.first + k * grid.stepMs;
    if (t <= resetTs) continue;
    const at = samples[k + 1];
    // a step that began before the reset counts the closes since the reset (the totals restarted at 0)
    const before = t - grid.stepMs < resetTs ? { cents: 0, closes: 0 } : samples[k];
    points.push({ t, realized_pnl_usd: at.cents / 100, equity_usd: (startCents + at.cents) / 100, closes: at.closes - before.closes });
  }
  return points;
}

/**
 * The largest fall from a peak, percent of that peak, over the equities in order; 0 when it never
 * falls. Worked example: 10000, 11000, 9900, 10500, 8800 -> the peak 11000 falls to 8800, 20%.
 */
export function maxDrawdownPct(equities: readonly number[]): number {
  let peak = -Infinity;
  let worst = 0;
  for (const equity of equities) {
    if (equity > peak) peak = equity;
    else if (peak > 0) worst = Math.max(worst, (peak - equity) / peak);
  }
  return trimNumber(Math.round(worst * 1e6) / 1e4);
}
