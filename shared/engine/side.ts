/** Position sides and the sign they give price moves. Pure. */
export type Side = 'long' | 'short';

/** +1 for a long, -1 for a short: a long gains when the price rises. */
export function direction(side: Side): 1 | -1 {
  return side === 'long' ? 1 : -1;
}

/** Money in whole cents, for sums that must add up exactly. */
export function toCents(usd: number): number {
  return Math.round(usd * 100);
}

/** Dollars rounded to the cent, for display. */
export function roundUsd(usd: number): number {
  return toCents(usd) / 100;
}

/** A price or rate trimmed to 12 significant digits (drops float noise such as 0.1 + 0.2). */
export function trimNumber(value: number): number {
  return Number(value.toPrecision(12));
}
