/** Whether a stored aggregate price may be served, and how; whether a TradFi price has stopped moving. Pure. */
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';
import type { AssetClass } from '../engine/fees.js';
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
  /** A TradFi price published unchanged for longer than this is stale for opens (0: never). */
  tradfiFrozenMs: number;
}

export function classifyQuote<Q extends PricePoint>(quote: Q | null, now: number, rules: FreshnessRules): QuoteState<Q> {
  if (!quote) return { kind: 'unavailable' };
  const ageMs = Math.max(0, now - quote.ts);
  if (ageMs <= rules.freshMs) return { kind: 'fresh', quote };
  if (ageMs <= rules.staleMaxMs) return { kind: 'stale', quote, ageMs };
  return { kind: 'unavailable' };
}

/** The rules the config sets (PRICE_FRESH_MS, PRICE_STALE_MAX_MS, TRADFI_FROZEN_MS): every reader of live prices uses these. */
export function freshnessRules(config: Pick<Config, 'priceFreshMs' | 'priceStaleMaxMs' | 'tradfiFrozenMs'>): FreshnessRules {
  return { freshMs: config.priceFreshMs, staleMaxMs: config.priceStaleMaxMs, tradfiFrozenMs: config.tradfiFrozenMs };
}

/**
 * Since when the venues have published `next`'s price: the previous quote's start when the price is the same and
 * the venues kept publishing it (the previous quote still fresh at `next`), else `next`'s own time. A gap in the
 * feed starts the count again, so a pause in what we heard never counts as a price that stood still.
 */
export function priceSince(prev: Pick<Quote, 'price' | 'ts' | 'sinceTs'> | null, next: PricePoint, freshMs: number): number {
  if (!prev || prev.price !== next.price || next.ts - prev.ts >= freshMs || next.ts < prev.ts) return next.ts;
  return Math.min(prev.sinceTs ?? prev.ts, next.ts);
}

/** How long a quote's venues have published its price unchanged, ms (0 when it just moved, or was stored without the start). */
export function unchangedFor(quote: Pick<Quote, 'ts' | 'sinceTs'>): number {
  return Math.max(0, quote.ts - (quote.sinceTs ?? quote.ts));
}

/**
 * A TradFi price that stopped moving while its venues still publish it: its underlying market is closed (a weekend,
 * a holiday) though no venue says so, and the price is stale for opens. A coin never: its market never closes.
 */
export function isFrozenTradFi(assetClass: AssetClass, unchangedMs: number, rules: Pick<FreshnessRules, 'tradfiFrozenMs'>): boolean {
  return assetClass !== 'crypto' && rules.tradfiFrozenMs > 0 && unchangedMs > rules.tradfiFrozenMs;
}

/** Why a symbol's market is closed for opens now, or null: a listing exchange says so, or its TradFi price froze. */
export function closedForOpens(
  assetClass: AssetClass,
  exchangeSaysClosed: boolean,
  unchangedMs: number,
  rules: Pick<FreshnessRules, 'tradfiFrozenMs'>,
): 'exchange' | 'frozen' | null {
  if (assetClass === 'crypto') return null;
  if (exchangeSaysClosed) return 'exchange';
  return isFrozenTradFi(assetClass, unchangedMs, rules) ? 'frozen' : null;
}

/** Why a TradFi symbol's market is closed now, and since when its price stood still. */
export interface MarketClosure {
  why: 'exchange' | 'frozen';
  assetClass: AssetClass;
  unchangedMs: number;
}

/** The closure of a symbol's market now, or null (a coin's never closes): closedForOpens with what the 409 names. */
export function marketClosure(
  assetClass: AssetClass,
  exchangeSaysClosed: boolean,
  unchangedMs: number,
  rules: Pick<FreshnessRules, 'tradfiFrozenMs'>,
): MarketClosure | null {
  const why = closedForOpens(assetClass, exchangeSaysClosed, unchangedMs, rules);
  return why === null ? null : { why, assetClass, unchangedMs };
}

/** 409 market_closed: the market under a TradFi ticker is closed now, so its price is stale; `details` adds to the body. */
export function marketClosedError(ticker: string, closure: MarketClosure, details: Record<string, unknown> = {}): AppError {
  const unchangedS = Math.floor(closure.unchangedMs / 1000);
  const why = closure.why === 'exchange' ? 'the exchange says so' : `its exchanges have published one price for ${unchangedS} s`;
  return new AppError('market_closed', `the market under ${ticker} is closed now (${why}): its price is stale`, {
    symbol: ticker,
    asset_class: closure.assetClass,
    unchanged_s: unchangedS,
    ...details,
  });
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
