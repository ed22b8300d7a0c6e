/** Funding: charged at each funding time (00, 08, 16 UTC) a position spans, at that time's rate and mark. Pure. */
import { direction, type Side } from './side.js';

export const FUNDING_INTERVAL_MS = 8 * 3_600_000;

/** A funding time and what was recorded for it: the rate (fraction, 0.0001 = 0.01%) and the mark price. */
export interface FundingRecord {
  time: number;
  rate: number;
  mark: number;
}

/** Funding times t with from < t <= to (00:00, 08:00 and 16:00 UTC are the multiples of 8 h since the epoch). */
export function fundingTimesBetween(fromExclusive: number, toInclusive: number): number[] {
  const times: number[] = [];
  for (
    let t = Math.floor(fromExclusive / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS + FUNDING_INTERVAL_MS;
    t <= toInclusive;
    t += FUNDING_INTERVAL_MS
  ) {
    times.push(t);
  }
  return times;
}

/** The most recent funding time at or before `at`. */
export function lastFundingTime(at: number): number {
  return Math.floor(at / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
}

/**
 * What a position pays in funding over the given records (positive = paid, negative = received):
 * a long pays a positive rate, a short receives it. qty x mark x rate per funding time.
 */
export function fundingCost(side: Side, qty: number, records: readonly FundingRecord[]): number {
  let total = 0;
  for (const r of records) total += direction(side) * qty * r.mark * r.rate;
  return total;
}
