/**
 * What the market routes ask for: quotes with their freshness, candles from Redis when it holds the
 * range and from REST history otherwise. A request never waits on an exchange when Redis has the answer.
 */
import type { Clock } from '../core/clock.js';
import { AppError, unknownSymbol } from '../core/errors.js';
import { aggregateCandles } from './aggregate-candles.js';
import { baseOf, canonicalSymbol } from './canonical-symbol.js';
import type { MarketStore } from './market-store.js';
import { classifyQuote, marketClosure, unchangedFor, type FreshnessRules, type MarketClosure } from './quote-freshness.js';
import { CANDLES_KEPT, type Candle, type Quote, type UniverseEntry } from './types.js';

const MINUTE_MS = 60_000;

export interface ServedQuote {
  /** Canonical pair, e.g. BTCUSDT. */
  pair: string;
  /** Ticker without the quote suffix, e.g. BTC. */
  base: string;
  price: number;
  venues: number;
  changePct24h: number | null;
  /** Time of the price, ms. */
  ts: number;
  stale: boolean;
  /** Present when stale: how old the price is. */
  ageMs?: number;
}

/** A served quote with its market's closure now (null for a coin, or a TradFi market that is open). */
export type QuoteWithClosure = ServedQuote & { closure: MarketClosure | null };

export interface CandleRequest {
  symbol: string;
  intervalMinutes: number;
  limit: number;
  /** Newest open time wanted, ms; omitted = now. */
  endMs?: number;
}

export class MarketService {
  constructor(
    private readonly store: MarketStore,
    private readonly clock: Clock,
    private readonly rules: FreshnessRules,
  ) {}

  /** The canonical pair of a known symbol, or 404 unknown_symbol. */
  async resolveSymbol(input: string): Promise<string> {
    return (await this.lookup(input)).pair;
  }

  /** A quote to serve, or 503 upstream_unavailable when no price is recent enough. */
  async quote(input: string): Promise<ServedQuote> {
    const { pair, stored } = await this.lookup(input);
    return this.servable(pair, stored);
  }

  /**
   * A quote to serve (as quote) and whether the symbol's TradFi market is closed now, by the rule opens follow:
   * a listing exchange says so, or its venues published one price past TRADFI_FROZEN_MS. Read in the same round trip.
   */
  async quoteWithClosure(input: string): Promise<QuoteWithClosure> {
    const asked = canonicalSymbol(input) ?? input;
    const [{ pair, stored }, assetClass, exchangeClosed] = await Promise.all([
      this.lookup(input),
      this.store.assetClass(asked),
      this.store.isMarketClosed(asked),
    ]);
    const served = this.servable(pair, stored);
    const unchangedMs = stored ? unchangedFor(stored) : 0;
    return { ...served, closure: marketClosure(assetClass, exchangeClosed, unchangedMs, this.rules) };
  }

  /**
   * A symbol is known when it is in the universe or has a stored price (the universe may not be
   * built yet). Both are read at once, so the stored quote comes with the answer.
   */
  private async lookup(input: string): Promise<{ pair: string; stored: Quote | null }> {
    const pair = canonicalSymbol(input);
    if (pair) {
      const [known, stored] = await Promise.all([this.store.isKnownSymbol(pair), this.store.getQuote(pair)]);
      if (known || stored) return { pair, stored };
    }
    throw unknownSymbol(input);
  }

  /** Quotes of several symbols in one round trip; symbols without a servable price are left out. */
  async quotes(pairs: readonly string[]): Promise<ServedQuote[]> {
    const found = await this.store.getQuotes(pairs);
    return pairs.map((pair, i) => this.serve(pair, found[i] ?? null)).filter((q): q is ServedQuote => q !== undefined);
  }

  symbols(): Promise<UniverseEntry[]> {
    return this.store.listSymbols();
  }

  /** Candles oldest first; the newest may still be open. */
  async candles(request: CandleRequest): Promise<Candle[]> {
    const pair = await this.resolveSymbol(request.symbol);
    const now = this.clock.now();
    const endMs = Math.min(request.endMs ?? now, now);
    const size = request.intervalMinutes * MINUTE_MS;
    const firstOpen = Math.floor(endMs / size) * size - (request.limit - 1) * size;
    const heldSince = Math.floor(now / MINUTE_MS) * MINUTE_MS - CANDLES_KEPT * MINUTE_MS;
    if (firstOpen >= heldSince) {
      const minutes = await this.store.getCandles(pair, { fromMs: firstOpen, toMs: endMs, limit: CANDLES_KEPT + 1 });
      // Redis answers only when it holds the whole window; a gap (a feed that started recently) goes to REST.
      if (minutes.length > 0 && minutes[0].openTime <= firstOpen) {
        const candles = request.intervalMinutes === 1 ? minutes : aggregateCandles(minutes, request.intervalMinutes);
        return candles.slice(-request.limit);
      }
    }
    return this.store.fetchHistory(pair, request.intervalMinutes, endMs, request.limit);
  }

  /** The quote to serve, or 503 upstream_unavailable when no price is recent enough. */
  private servable(pair: string, stored: Quote | null): ServedQuote {
    const served = this.serve(pair, stored);
    if (!served) throw new AppError('upstream_unavailable', `no recent price for ${pair} from any exchange`, { symbol: pair });
    return served;
  }

  private serve(pair: string, quote: Quote | null): ServedQuote | undefined {
    const state = classifyQuote(quote, this.clock.now(), this.rules);
    if (state.kind === 'unavailable') return undefined;
    const { price, venues, changePct24h, ts } = state.quote;
    const base = { pair, base: baseOf(pair), price, venues, changePct24h, ts };
    return state.kind === 'fresh' ? { ...base, stale: false } : { ...base, stale: true, ageMs: state.ageMs };
  }
}
