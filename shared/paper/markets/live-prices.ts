/**
 * Prices for trading: a fill needs a fresh aggregated price (no stale fallback); marks on reads take
 * whatever the market routes would serve. The symbol is resolved and its quote read in one round trip.
 */
import type { Clock } from '../../core/clock.js';
import { AppError, unknownSymbol } from '../../core/errors.js';
import { baseOf, canonicalSymbol } from '../../market/canonical-symbol.js';
import type { MarketStore } from '../../market/market-store.js';
import type { UniverseEntry } from '../../market/types.js';
import {
  classifyQuote,
  closedForOpens,
  marketClosedError,
  marketClosure,
  marksOf,
  unchangedFor,
  type FreshnessRules,
  type Mark,
} from '../../market/quote-freshness.js';
import type { AssetClass } from '../../engine/fees.js';
import { maxLeverage } from './leverage-caps.js';

export interface LivePrice {
  symbol: string;
  assetClass: AssetClass;
  price: number;
  ts: number;
  /** How long the venues have published this price unchanged, ms. */
  unchangedMs: number;
}

/** A price to enter at, with the symbol's leverage cap. */
export interface EntryPrice extends LivePrice {
  maxLeverage: number;
}

/** An entry price read, its failure kept as a value (so a read started early never rejects unheard). */
export type SettledFill = { value: EntryPrice } | { error: unknown };

/** A fill price read started before its request was validated (the open route's prefetch), for the symbol as sent. */
export class PrefetchedFill {
  constructor(
    readonly symbol: string,
    readonly fill: Promise<SettledFill>,
  ) {}
}

export class LivePrices {
  constructor(
    private readonly store: MarketStore,
    private readonly clock: Clock,
    private readonly rules: FreshnessRules,
  ) {}

  /**
   * A fresh price to fill at: 404 unknown_symbol, or 400 no_price when no venue has a fresh price.
   * A stored quote makes the symbol known; the universe is asked only when there is none.
   */
  async fillPrice(input: string): Promise<LivePrice> {
    const symbol = canonicalSymbol(input);
    if (!symbol) throw unknownSymbol(input);
    const [quote, assetClass] = await Promise.all([this.store.getQuote(symbol), this.store.assetClass(symbol)]);
    if (!quote && !(await this.store.isKnownSymbol(symbol))) throw unknownSymbol(input);
    const state = classifyQuote(quote, this.clock.now(), this.rules);
    if (state.kind !== 'fresh') {
      const ticker = baseOf(symbol);
      throw new AppError(
        'no_price',
        `no live price for ${ticker}: no exchange sent one in the last ${Math.round(this.rules.freshMs / 1000)} s`,
        { symbol: ticker },
      );
    }
    return { symbol, assetClass, price: state.quote.price, ts: state.quote.ts, unchangedMs: unchangedFor(state.quote) };
  }

  /**
   * A fresh price to enter at (as fillPrice) and the symbol's leverage cap, from its 24h volume, read alongside.
   * A TradFi price whose underlying market is closed is stale whatever its age: 409 market_closed rather than a fill
   * at a frozen price (closes still fill: a holder may leave). Closed is what a listing venue says, or a price its
   * venues kept publishing unchanged for longer than TRADFI_FROZEN_MS.
   */
  async entryPrice(input: string): Promise<EntryPrice> {
    const [live, volume, closed] = await Promise.all([
      this.fillPrice(input),
      this.store.quoteVolume24h(input),
      this.store.isMarketClosed(input),
    ]);
    const closure = marketClosure(live.assetClass, closed, live.unchangedMs, this.rules);
    if (closure) throw marketClosedError(baseOf(live.symbol), closure);
    return { ...live, maxLeverage: maxLeverage(live.symbol, live.assetClass, volume) };
  }

  settledEntryPrice(input: string): Promise<SettledFill> {
    return this.entryPrice(input).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  }

  /**
   * Marks of universe entries (as marks), each with whether its market is closed for opens now, by entryPrice's rule:
   * /markets shows it before an open is refused.
   */
  async entryMarks(entries: readonly UniverseEntry[]): Promise<Map<string, Mark & { marketClosed: boolean }>> {
    const quotes = await this.store.getQuotes(entries.map((e) => e.symbol));
    const marks = marksOf(
      entries.map((e) => e.symbol),
      quotes,
      this.clock.now(),
      this.rules,
    );
    const out = new Map<string, Mark & { marketClosed: boolean }>();
    entries.forEach((e, i) => {
      const mark = marks.get(e.symbol);
      const quote = quotes[i];
      if (!mark || !quote) return;
      out.set(e.symbol, {
        ...mark,
        marketClosed: closedForOpens(e.assetClass, e.closed === true, unchangedFor(quote), this.rules) !== null,
      });
    });
    return out;
  }

  /** Marks for reads: fresh or stale prices as the market routes serve them; symbols without one are absent. */
  async marks(symbols: readonly string[]): Promise<Map<string, Mark>> {
    const unique = [...new Set(symbols)];
    return marksOf(unique, await this.store.getQuotes(unique), this.clock.now(), this.rules);
  }
}
