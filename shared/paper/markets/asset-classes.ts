/**
 * Which asset class a canonical symbol belongs to, and what the class allows. Pure data.
 *
 * The non-crypto markets are the TradFi USDT perpetuals that the connected exchanges list (Binance
 * USDⓈ-M and Bybit list gold and silver, Binance lists stock perpetuals; the simulated exchange
 * lists the same set): their prices arrive through the same feed as the coins, so every class is
 * priced, aggregated and served the same way. The class comes from this static table; any other
 * symbol is a crypto perpetual.
 */
import type { AssetClass } from '../../engine/fees.js';

export const TRADFI_CLASSES: Readonly<Record<string, Exclude<AssetClass, 'crypto'>>> = {
  XAUUSDT: 'metal',
  XAGUSDT: 'metal',
  SPX500USDT: 'index',
  NAS100USDT: 'index',
  TSLAUSDT: 'stock',
  NVDAUSDT: 'stock',
  AAPLUSDT: 'stock',
  MSFTUSDT: 'stock',
  EURUSDT: 'forex',
  GBPUSDT: 'forex',
  JPYUSDT: 'forex',
  AUDUSDT: 'forex',
};

/** Highest leverage per class: crypto 1000 (with a live price), stocks and forex 50, metals and indices 20. */
export const MAX_LEVERAGE: Readonly<Record<AssetClass, number>> = {
  crypto: 1000,
  stock: 50,
  forex: 50,
  metal: 20,
  index: 20,
};

export function assetClassOf(symbol: string): AssetClass {
  return TRADFI_CLASSES[symbol] ?? 'crypto';
}
