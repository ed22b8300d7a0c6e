/**
 * The leverage cap of a symbol. Pure.
 *
 * Stocks and forex 50x, metals and indices 20x (the spec). Crypto goes up to 1000x on the coins the
 * original lists at "up to 1000x"; every other coin is capped by its liquidity, at the original's
 * "100x-200x on smaller alts". A symbol with no volume data (not in the current universe, or a volume
 * of 0) gets the most conservative tier, a major included: its liquidity is unknown.
 */
import type { AssetClass } from '../../engine/fees.js';
import { baseOf } from '../../market/canonical-symbol.js';

export const CLASS_MAX_LEVERAGE: Readonly<Record<Exclude<AssetClass, 'crypto'>, number>> = {
  stock: 50,
  forex: 50,
  metal: 20,
  index: 20,
};

/** The highest cap of all. */
export const TOP_MAX_LEVERAGE = 1000;

/**
 * Base coins the original lists at up to 1000x (PEPE also as the exchanges' 1000PEPE contract); not
 * the eight majors of /api/v1/prices (shared/market/majors.ts).
 */
export const TOP_LEVERAGE_BASES: ReadonlySet<string> = new Set(['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'HYPE', 'PEPE', '1000PEPE']);

/**
 * The other coins' tiers over their 24 h quote volume in USDT, summed over the venues listing them
 * (the universe's number), highest first. The last tier is also the one for no volume data.
 */
export const VOLUME_TIERS: readonly { minQuoteVolume24h: number; maxLeverage: number }[] = [
  { minQuoteVolume24h: 1e9, maxLeverage: 200 },
  { minQuoteVolume24h: 1e8, maxLeverage: 150 },
  { minQuoteVolume24h: 0, maxLeverage: 100 },
];

const MOST_CONSERVATIVE = VOLUME_TIERS[VOLUME_TIERS.length - 1].maxLeverage;

/** `symbol` canonical (BTCUSDT); `quoteVolume24h` undefined when the universe does not list it. */
export function maxLeverage(symbol: string, assetClass: AssetClass, quoteVolume24h: number | undefined): number {
  if (assetClass !== 'crypto') return CLASS_MAX_LEVERAGE[assetClass];
  if (quoteVolume24h === undefined || !(quoteVolume24h > 0)) return MOST_CONSERVATIVE;
  if (TOP_LEVERAGE_BASES.has(baseOf(symbol))) return TOP_MAX_LEVERAGE;
  return VOLUME_TIERS.find((tier) => quoteVolume24h >= tier.minQuoteVolume24h)?.maxLeverage ?? MOST_CONSERVATIVE;
}
