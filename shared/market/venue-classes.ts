/**
 * The asset class of a listed contract, from the metadata its venue publishes with it. Pure.
 *
 * - Binance USDⓈ-M exchangeInfo: `contractType` PERPETUAL is a coin (its `underlyingType` COIN, or INDEX for
 *   crypto indices such as BTCDOMUSDT); TRADIFI_PERPETUAL names its underlying in `underlyingType`: EQUITY (and
 *   the regional HK_EQUITY, KR_EQUITY, CN_EQUITY) is a stock, COMMODITY a metal when the base is one, INDEX an
 *   index, FOREX a currency (no recorded sample shows a TradFi INDEX or FOREX row yet; the names follow the
 *   venue's own spelling of its other types).
 * - Bybit v5 instruments-info (linear): `symbolType` "" or "innovation" is a coin; "stock" and "ETF" a stock,
 *   "commodity" a metal when the base is one, "forex" a currency.
 * - OKX v5 public instruments: `instCategory` "1" is a coin, "3" a stock; other categories are left out until a
 *   recorded sample shows what they hold.
 * - Bitget v2 contracts name no underlying class: its perpetuals are coins.
 * null: a TradFi contract of no class the service trades (oil, gas, pre-market listings): left out.
 */
import { ASSET_CLASSES, type AssetClass } from '../engine/fees.js';

/** Bases of the metal contracts (gold, silver, platinum, palladium, copper). */
const METALS = new Set(['XAU', 'XAG', 'XPT', 'XPD', 'COPPER', 'XCU', 'GOLD', 'SILVER']);

function commodity(base: string): AssetClass | null {
  return METALS.has(base) ? 'metal' : null;
}

/** The base of a canonical USDT symbol (XAUUSDT -> XAU). */
function baseOfSymbol(symbol: string): string {
  return symbol.endsWith('USDT') ? symbol.slice(0, -4) : symbol;
}

export function binanceClass(contractType: unknown, underlyingType: unknown, symbol: string): AssetClass | null {
  if (contractType === 'PERPETUAL') return 'crypto';
  if (contractType !== 'TRADIFI_PERPETUAL' || typeof underlyingType !== 'string') return null;
  if (underlyingType === 'EQUITY' || underlyingType.endsWith('_EQUITY')) return 'stock';
  if (underlyingType === 'COMMODITY') return commodity(baseOfSymbol(symbol));
  if (underlyingType === 'INDEX') return 'index';
  if (underlyingType === 'FOREX') return 'forex';
  return null;
}

export function bybitClass(symbolType: unknown, symbol: string): AssetClass | null {
  const type = typeof symbolType === 'string' ? symbolType.toLowerCase() : '';
  if (type === '' || type === 'innovation') return 'crypto';
  if (type === 'stock' || type === 'etf') return 'stock';
  if (type === 'commodity') return commodity(baseOfSymbol(symbol));
  if (type === 'forex') return 'forex';
  return null;
}

export function okxClass(instCategory: unknown): AssetClass | null {
  if (instCategory === undefined || instCategory === '1') return 'crypto';
  if (instCategory === '3') return 'stock';
  return null;
}

export function isAssetClass(value: unknown): value is AssetClass {
  return typeof value === 'string' && (ASSET_CLASSES as readonly string[]).includes(value);
}

/**
 * The fallback, and the only place a class is not the venue's word: a universe stored by a version that kept
 * no classes (until the next universe refresh replaces it) takes the class of the TradFi contracts the venues
 * listed then; any other symbol is a coin.
 */
const BEFORE_CLASSES: Readonly<Record<string, AssetClass>> = {
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

export function storedBeforeClasses(symbol: string): AssetClass {
  return BEFORE_CLASSES[symbol] ?? 'crypto';
}
