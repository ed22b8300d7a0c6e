/** Funding: charged at each of a symbol's funding times a position spans, at the rate that settled and its mark. Pure. */
import { direction, type Side } from './side.js';

/** A funding time and what settled for it: the rate (fraction, 0.0001 = 0.01%) and the mark price. */
export interface FundingRecord {
  time: number;
  rate: number;
  mark: number;
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
