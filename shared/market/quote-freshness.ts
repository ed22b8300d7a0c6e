/** Whether a stored aggregate price may be served, and how. Pure. */
import type { Config } from '../core/config.js';
import type { Quote } from './types.js';

/** What freshness reads of a quote (a stored quote, or a tick the feed published): its price and when it was made. */
export type PricePoint = Pick<Quote, 'price' | 'ts'>;

export type QuoteState<Q extends PricePoint = Quote> =
  | { kind: 'fresh'; quote: Q }
  /** No venue has a fresh price: the last known one is served, marked stale, with its age. */
  | { kind: 'stale'; quote: Q; ageMs: number }
  /** Nothing recent enough to serve. */
  | { kind: 'unavailable' };

export interface FreshnessRules {
  /** A quote younger than this is fresh. */
  freshMs: number;
  /** A stale quote older than this is no longer served. */
  staleMaxMs: number;
}

export function classifyQuote<Q extends PricePoint>(quote: Q | null, now: number, rules: FreshnessRules): QuoteState<Q> {
  if (!quote) return { kind: 'unavailable' };
  const ageMs = Math.max(0, now - quote.ts);
  if (ageMs <= rules.freshMs) return { kind: 'fresh', quote };
  if (ageMs <= rules.staleMaxMs) return { kind: 'stale', quote, ageMs };
  return { kind: 'unavailable' };
}

/** The rules the config sets (PRICE_FRESH_MS, PRICE_STALE_MAX_MS): every reader of live prices uses these. */
export function freshnessRules(config: Pick<Config, 'priceFreshMs' | 'priceStaleMaxMs'>): FreshnessRules {
  return { freshMs: config.priceFreshMs, staleMaxMs: config.priceStaleMaxMs };
}

/** A price as reads show it: fresh, or the last one marked stale while it may still be served. */
export interface Mark {
  price: number;
  stale: boolean;
}

/** The marks of symbols, given their quotes in the same order; a symbol with nothing to serve is absent. */
export function marksOf(
  symbols: readonly string[],
  quotes: readonly (PricePoint | null | undefined)[],
  now: number,
  rules: FreshnessRules,
): Map<string, Mark> {
  const out = new Map<string, Mark>();
  symbols.forEach((symbol, i) => {
    const state = classifyQuote(quotes[i] ?? null, now, rules);
    if (state.kind !== 'unavailable') out.set(symbol, { price: state.quote.price, stale: state.kind === 'stale' });
  });
  return out;
}
