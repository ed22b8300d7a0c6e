/** Whether a stored aggregate price may be served, and how. Pure. */
import type { Config } from '../core/config.js';
import type { Quote } from './types.js';

export type QuoteState =
  | { kind: 'fresh'; quote: Quote }
  /** No venue has a fresh price: the last known one is served, marked stale, with its age. */
  | { kind: 'stale'; quote: Quote; ageMs: number }
  /** Nothing recent enough to serve. */
  | { kind: 'unavailable' };

export interface FreshnessRules {
  /** A quote younger than this is fresh. */
  freshMs: number;
  /** A stale quote older than this is no longer served. */
  staleMaxMs: number;
}

export function classifyQuote(quote: Quote | null, now: number, rules: FreshnessRules): QuoteState {
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
