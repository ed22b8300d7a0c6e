/** How long the read models keep what the settlement writes, and which closes they count. */
import { DAY_MS } from '../../engine/analytics/close-facts.js';
import { EQUITY_DAYS } from '../../engine/analytics/equity-curve.js';

/** The equity curve keeps its entries one day beyond the longest window (the newest older entry stays: it holds the totals). */
export const CURVE_KEPT_MS = (EQUITY_DAYS.max + 1) * DAY_MS;
/** A day bucket lives a little longer than the longest report window. */
export const DAY_BUCKET_TTL_S = ((EQUITY_DAYS.max + 2) * DAY_MS) / 1000;

/**
 * Whether a close counts in the equity curve and the report. A replay row (src 'replay', spec
 * "Versioning" 3) never does: the settlement script is told so (its ARGV[14]) and leaves the
 * curve and the day buckets alone.
 */
export function closeCountsInAnalytics(position: object): boolean {
  return (position as { src?: unknown }).src !== 'replay';
}
