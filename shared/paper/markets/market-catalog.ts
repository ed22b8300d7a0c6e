/**
 * The tradable markets: every symbol the feed follows that has a price, with its class (from the venues'
 * instrument metadata, shared/market/venue-classes.ts), leverage cap and taker fee.
 */
import { ASSET_CLASSES, CLASS_TAKER_PCT, type AssetClass } from '../../engine/fees.js';
import type { MarketStore } from '../../market/market-store.js';
import type { UniverseEntry } from '../../market/types.js';
import { maxLeverage } from './leverage-caps.js';
import type { LivePrices } from './live-prices.js';

export interface MarketRow {
  symbol: string;
  asset_class: AssetClass;
  max_leverage: number;
  taker_fee_pct: number;
  /** Opens on it answer 409 market_closed now (a TradFi market closed: its exchange says so, or its price froze). */
  market_closed: boolean;
}

/** A universe entry's row: its cap comes from its 24h volume (leverage-caps.ts). */
export function marketRow({ symbol, assetClass, quoteVolume24h }: UniverseEntry, marketClosed: boolean): MarketRow {
  return {
    symbol,
    asset_class: assetClass,
    max_leverage: maxLeverage(symbol, assetClass, quoteVolume24h),
    taker_fee_pct: CLASS_TAKER_PCT[assetClass],
    market_closed: marketClosed,
  };
}

export class MarketCatalog {
  constructor(
    private readonly store: MarketStore,
    private readonly prices: LivePrices,
  ) {}

  /**
   * The universe (largest volume first) restricted to symbols with a price, optionally one class, and the
   * classes no connected venue lists now (none of their contracts in the universe).
   */
  async list(assetClass?: AssetClass): Promise<{ markets: MarketRow[]; unlisted: AssetClass[] }> {
    const entries = await this.store.listSymbols();
    const wanted = assetClass === undefined ? entries : entries.filter((e) => e.assetClass === assetClass);
    const marks = await this.prices.entryMarks(wanted);
    const listed = new Set(entries.map((e) => e.assetClass));
    const markets = wanted.flatMap((e) => {
      const mark = marks.get(e.symbol);
      return mark ? [marketRow(e, mark.marketClosed)] : [];
    });
    return { markets, unlisted: ASSET_CLASSES.filter((c) => !listed.has(c)) };
  }
}
