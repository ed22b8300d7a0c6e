/** The aggregate price: the median of the venues whose last price is still fresh. Pure. */
import { VENUE_PRIORITY, type Quote, type Venue } from './types.js';

export interface VenuePrice {
  venue: Venue;
  price: number;
  /** Time of that price, ms. */
  ts: number;
  changePct24h?: number;
  quoteVolume24h?: number;
}

export interface FreshMedian {
  price: number;
  /** How many venues were fresh and used. */
  venues: number;
  /** The newest ts among the venues used. */
  ts: number;
  used: Venue[];
}

/** True when the price is younger than freshMs at `now` (a ts slightly in the future counts as fresh). */
export function isFresh(ts: number, now: number, freshMs: number): boolean {
  return Number.isFinite(ts) && now - ts < freshMs;
}

/**
 * The mean of two prices without binary noise (3454.8050000000003): 12 significant digits is far
 * finer than any tick, and the result stays between the two.
 */
function midpoint(low: number, high: number): number {
  const rounded = Number(((low + high) / 2).toPrecision(12));
  return Math.min(high, Math.max(low, rounded));
}

/**
 * Median of the fresh, valid (finite, positive) prices; an even count averages the two middle ones.
 * null when no venue is fresh.
 */
export function medianOfFresh(prices: readonly VenuePrice[], now: number, freshMs: number): FreshMedian | null {
  const fresh = prices.filter((p) => Number.isFinite(p.price) && p.price > 0 && isFresh(p.ts, now, freshMs));
  if (fresh.length === 0) return null;
  const sorted = fresh.map((p) => p.price).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const price = sorted.length % 2 === 1 ? sorted[mid] : midpoint(sorted[mid - 1], sorted[mid]);
  return {
    price,
    venues: fresh.length,
    ts: Math.max(...fresh.map((p) => p.ts)),
    used: fresh.map((p) => p.venue),
  };
}

/** The aggregate of one symbol from its venues' last prices; 24h change from the best venue that has it. */
export function aggregateQuote(symbol: string, prices: readonly VenuePrice[], now: number, freshMs: number): Quote | null {
  const median = medianOfFresh(prices, now, freshMs);
  if (!median) return null;
  const withChange = VENUE_PRIORITY.map((v) => prices.find((p) => p.venue === v && median.used.includes(v))).find(
    (p) => p?.changePct24h !== undefined,
  );
  return { symbol, price: median.price, venues: median.venues, changePct24h: withChange?.changePct24h ?? null, ts: median.ts };
}
