/**
 * The arithmetic of the regional quotes: medians, the 20 % outlier filter, spreads, the brecha
 * (Argentina) and the agio (Brazil). Pure; every price is fee-inclusive (what a client really pays
 * to buy, ask, and really gets to sell, bid).
 */

export interface TwoSided {
  id: string;
  ask: number;
  bid: number;
}

/** Venues more than this far from the median mid are dropped. */
export const MAX_DEVIATION = 0.2;

export function median(values: readonly number[]): number | null {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const half = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? xs[half] : (xs[half - 1] + xs[half]) / 2;
}

export const midOf = (q: { ask: number; bid: number }): number => (q.ask + q.bid) / 2;

/** Only venues quoting both sides (a P2P book with no offer reports 0) take part. */
export function twoSided<T extends TwoSided>(quotes: readonly T[]): T[] {
  return quotes.filter((q) => Number.isFinite(q.ask) && Number.isFinite(q.bid) && q.ask > 0 && q.bid > 0);
}

export interface OutlierSplit<T> {
  /** Median mid of all two-sided venues, before the filter. */
  reference: number | null;
  kept: T[];
  dropped: T[];
}

/** Drops venues whose mid is more than maxDeviation (a fraction) away from the median mid of all two-sided venues. */
export function dropOutliers<T extends TwoSided>(quotes: readonly T[], maxDeviation = MAX_DEVIATION): OutlierSplit<T> {
  const usable = twoSided(quotes);
  const reference = median(usable.map(midOf));
  if (reference === null) return { reference, kept: [], dropped: [] };
  const kept: T[] = [];
  const dropped: T[] = [];
  for (const q of usable) (Math.abs(midOf(q) / reference - 1) > maxDeviation ? dropped : kept).push(q);
  return { reference, kept, dropped };
}

/** (ask - bid) / mid, in percent. */
export function spreadPct(ask: number, bid: number): number {
  const mid = (ask + bid) / 2;
  return mid > 0 ? ((ask - bid) / mid) * 100 : 0;
}

/** How far the crypto dollar is above (positive) or below a reference dollar, in percent. */
export function brecha(cryptoDollar: number | null, reference: number | null): number | null {
  if (cryptoDollar === null || reference === null || !(reference > 0)) return null;
  return (cryptoDollar / reference - 1) * 100;
}

/** agio = ask / (BTC/USD x USD/BRL) - 1, in percent: the premium of a venue's BTC over the dollar-converted price. */
export function agio(ask: number, usdPrice: number | null, usdBrl: number | null): number | null {
  if (usdPrice === null || usdBrl === null || !(usdPrice > 0) || !(usdBrl > 0)) return null;
  return (ask / (usdPrice * usdBrl) - 1) * 100;
}

/** Price rounding for output: cents for prices of 100 and more, 4 decimals below. */
export function roundMoney(x: number): number {
  return Number(x.toFixed(Math.abs(x) >= 100 ? 2 : 4));
}

export function roundPct(x: number | null): number | null {
  return x === null ? null : Number(x.toFixed(2));
}

/** The cheapest venue to buy at and the best one to sell at. */
export function bestVenues<T extends TwoSided>(quotes: readonly T[]): { buy: T | null; sell: T | null } {
  let buy: T | null = null;
  let sell: T | null = null;
  for (const q of quotes) {
    if (!buy || q.ask < buy.ask) buy = q;
    if (!sell || q.bid > sell.bid) sell = q;
  }
  return { buy, sell };
}
