/**
 * Prices for trading: a fill needs a fresh aggregated price (no stale fallback); marks on reads take
 * whatever the market routes would serve. The symbol is resolved and its quote read in one round trip.
 */
import type { Clock } from '../../core/clock.js';
import { AppError, unknownSymbol } from '../../core/errors.js';
import { baseOf, canonicalSymbol } from '../../market/canonical-symbol.js';
import type { MarketStore } from '../../market/market-store.js';
import { classifyQuote, marksOf, type FreshnessRules, type Mark } from '../../market/quote-freshness.js';
import type { AssetClass } from '../../engine/fees.js';
import { assetClassOf } from './asset-classes.js';
import { maxLeverage } from './leverage-caps.js';

export interface LivePrice {
  symbol: string;
  assetClass: AssetClass;
  price: number;
  ts: number;
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
    const quote = await this.store.getQuote(symbol);
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
    return { symbol, assetClass: assetClassOf(symbol), price: state.quote.price, ts: state.quote.ts };
  }

  /** A fresh price to enter at (as fillPrice) and the symbol's leverage cap, from its 24h volume, read alongside. */
  async entryPrice(input: string): Promise<EntryPrice> {
    const [live, volume] = await Promise.all([this.fillPrice(input), this.store.quoteVolume24h(input)]);
    return { ...live, maxLeverage: maxLeverage(live.symbol, live.assetClass, volume) };
  }

  settledEntryPrice(input: string): Promise<SettledFill> {
    return this.entryPrice(input).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  }

  /** Marks for reads: fresh or stale prices as the market routes serve them; symbols without one are absent. */
  async marks(symbols: readonly string[]): Promise<Map<string, Mark>> {
    const unique = [...new Set(symbols)];
    return marksOf(unique, await this.store.getQuotes(unique), this.clock.now(), this.rules);
  }
}
