/**
 * Which asset class a canonical symbol belongs to. Pure data (the leverage caps: leverage-caps.ts).
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

export function assetClassOf(symbol: string): AssetClass {
  return TRADFI_CLASSES[symbol] ?? 'crypto';
}
