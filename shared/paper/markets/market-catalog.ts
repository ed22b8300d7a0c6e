/** The tradable markets: every symbol the feed follows that has a price, with its class, leverage cap and taker fee. */
import { CLASS_TAKER_PCT, type AssetClass } from '../../engine/fees.js';
import type { MarketStore } from '../../market/market-store.js';
import { assetClassOf, MAX_LEVERAGE } from './asset-classes.js';
import type { LivePrices } from './live-prices.js';

export interface MarketRow {
  symbol: string;
  asset_class: AssetClass;
  max_leverage: number;
  taker_fee_pct: number;
}

export function marketRow(symbol: string): MarketRow {
  const assetClass = assetClassOf(symbol);
  return { symbol, asset_class: assetClass, max_leverage: MAX_LEVERAGE[assetClass], taker_fee_pct: CLASS_TAKER_PCT[assetClass] };
}

export class MarketCatalog {
  constructor(
    private readonly store: MarketStore,
    private readonly prices: LivePrices,
  ) {}

  /** The universe (largest volume first) restricted to symbols with a price, optionally one class. */
  async list(assetClass?: AssetClass): Promise<MarketRow[]> {
    const symbols = (await this.store.listSymbols()).map((entry) => entry.symbol);
    const wanted = assetClass === undefined ? symbols : symbols.filter((s) => assetClassOf(s) === assetClass);
    const marks = await this.prices.marks(wanted);
    return wanted.filter((s) => marks.has(s)).map(marketRow);
  }
}
