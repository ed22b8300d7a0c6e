/** The sim's long/short account ratios: a slow deterministic wave per symbol and venue, within 35 %..70 % long. */
import type { SymbolSpec } from '../symbols.js';

export const RATIO_PERIOD_MS = 300_000;

export function longShare(spec: SymbolSpec, venue: number, ts: number): number {
  return 0.525 + 0.15 * Math.sin(spec.index * 1.7 + venue * 0.9 + ts / 7_200_000);
}

/** Period starts (ms) of the newest `limit` closed 5-minute periods, oldest first. */
export function ratioTimes(now: number, limit: number): number[] {
  const last = Math.floor(now / RATIO_PERIOD_MS) * RATIO_PERIOD_MS - RATIO_PERIOD_MS;
  return Array.from({ length: limit }, (_, i) => last - (limit - 1 - i) * RATIO_PERIOD_MS);
}
