/** The tradable markets: every symbol the feed follows that has a price, with its class, leverage cap and taker fee. */
import { CLASS_TAKER_PCT, type AssetClass } from '../../engine/fees.js';
import type { MarketStore } from '../../market/market-store.js';
import type { UniverseEntry } from '../../market/types.js';
import { assetClassOf } from './asset-classes.js';
import { maxLeverage } from './leverage-caps.js';
import type { LivePrices } from './live-prices.js';

export interface MarketRow {
  symbol: string;
  asset_class: AssetClass;
  max_leverage: number;
  taker_fee_pct: number;
}

/** A universe entry's row: its cap comes from its 24h volume (leverage-caps.ts). */
export function marketRow({ symbol, quoteVolume24h }: UniverseEntry): MarketRow {
  const assetClass = assetClassOf(symbol);
  return {
    symbol,
    asset_class: assetClass,
    max_leverage: maxLeverage(symbol, assetClass, quoteVolume24h),
    taker_fee_pct: CLASS_TAKER_PCT[assetClass],
  };
}

export class MarketCatalog {
  constructor(
    private readonly store: MarketStore,
    private readonly prices: LivePrices,
  ) {}

  /** The universe (largest volume first) restricted to symbols with a price, optionally one class. */
  async list(assetClass?: AssetClass): Promise<MarketRow[]> {
    const entries = await this.store.listSymbols();
    const wanted = assetClass === undefined ? entries : entries.filter((e) => assetClassOf(e.symbol) === assetClass);
    const marks = await this.prices.marks(wanted.map((e) => e.symbol));
    return wanted.filter((e) => marks.has(e.symbol)).map(marketRow);
  }
}
