/**
 * The simulated USDT-perpetual universe: real liquid coins with plausible prices and 24h volumes,
 * plus a few TradFi perpetuals (metals, indices, stocks, forex) as the exchanges list them.
 */
import type { AssetClass } from '../../shared/engine/fees.js';

export interface SymbolSpec {
  /** Base coin, e.g. BTC. */
  readonly base: string;
  /** Binance/Bybit/Bitget style name, e.g. BTCUSDT. */
  readonly symbol: string;
  /** Liquidity rank, 0 = most traded. */
  readonly index: number;
  readonly startPrice: number;
  /** Reference 24h quote volume in USD (the Binance share; other venues get a fraction). */
  readonly quoteVolume24h: number;
  /** Decimal places of the price grid. */
  readonly priceDp: number;
  readonly tick: number;
  /** Decimal places of the quantity grid. */
  readonly qtyDp: number;
  /** Listing time in ms, only used for instrument metadata. */
  readonly listedAt: number;
  /** What the contract's underlying is; the venues' metadata says it in their own fields. */
  readonly assetClass: AssetClass;
  /** Hours between funding times (the venues' 8 h, or a 4 h or 1 h schedule as Binance sets for some pairs). */
  readonly fundingIntervalHours: number;
}

/** Pairs on a shorter funding schedule than 8 h, as the venues run a few (Binance's fundingInfo lists them). */
const FUNDING_HOURS: Readonly<Record<string, number>> = { SEI: 1, WIF: 4 };

// Order matters: the first 8 are required by the product, the rest descend roughly by real volume.
const COINS: ReadonlyArray<readonly [string, number]> = [
  ['BTC', 67000],
  ['ETH', 3500],
  ['SOL', 150],
  ['BNB', 580],
  ['XRP', 0.52],
  ['DOGE', 0.15],
  ['ADA', 0.45],
  ['AVAX', 35],
  ['LINK', 15],
  ['DOT', 7.2],
  ['LTC', 80],
  ['TRX', 0.12],
  ['TON', 6.5],
  ['SUI', 1.1],
  ['APT', 9],
  ['ARB', 0.9],
  ['OP', 2.1],
  ['NEAR', 5.5],
  ['ATOM', 8],
  ['FIL', 5.5],
  ['BCH', 450],
  ['ETC', 27],
  ['UNI', 9.5],
  ['AAVE', 110],
  ['INJ', 25],
  ['TIA', 8.5],
  ['SEI', 0.45],
  ['WIF', 2.5],
  ['HBAR', 0.09],
  ['ICP', 11],
  ['STX', 1.9],
  ['IMX', 1.7],
  ['LDO', 2],
  ['CRV', 0.45],
  ['ALGO', 0.17],
  ['XLM', 0.11],
  ['VET', 0.03],
  ['GRT', 0.22],
  ['SAND', 0.4],
  ['MANA', 0.4],
  ['AXS', 6.5],
  ['EOS', 0.75],
  ['XTZ', 0.9],
  ['DYDX', 1.6],
  ['GALA', 0.03],
  ['CHZ', 0.1],
  ['ENS', 25],
  ['COMP', 55],
  ['SNX', 2.4],
  ['RUNE', 5],
  ['FET', 1.5],
  ['JUP', 1],
  ['PYTH', 0.4],
  ['WLD', 3],
  ['ORDI', 40],
  ['STRK', 0.9],
  ['ENA', 0.7],
  ['ONDO', 1.1],
  ['ZEC', 30],
  ['DASH', 28],
  ['KSM', 30],
  ['NEO', 12],
  ['MINA', 0.6],
  ['ZIL', 0.02],
  ['1INCH', 0.4],
  ['KAVA', 0.5],
  ['THETA', 1.8],
  ['EGLD', 35],
];

/**
 * TradFi USDT perpetuals (base, price, 24h volume, class), listed after the coins whatever the symbol count:
 * gold and silver, two index perpetuals named like the CFD tickers, five stocks, four currencies
 * quoted in USDT (JPY as the price of one yen). Each venue's instrument metadata names the class in
 * that venue's own fields (Binance contractType TRADIFI_PERPETUAL and underlyingType, Bybit symbolType,
 * OKX instCategory), and a venue lists only the classes it is known to list (venues/*.ts); the API
 * classifies from that metadata (shared/market/venue-classes.ts).
 */
export const TRADFI: ReadonlyArray<readonly [string, number, number, Exclude<AssetClass, 'crypto'>]> = [
  ['XAU', 4000, 9e8, 'metal'],
  ['XAG', 48, 2.5e8, 'metal'],
  ['SPX500', 6700, 3e8, 'index'],
  ['NAS100', 24500, 2e8, 'index'],
  ['TSLA', 430, 1.5e8, 'stock'],
  ['NVDA', 185, 1.2e8, 'stock'],
  ['AAPL', 260, 8e7, 'stock'],
  ['MSFT', 510, 6e7, 'stock'],
  ['AMZN', 230, 5e7, 'stock'],
  ['EUR', 1.16, 1e8, 'forex'],
  ['GBP', 1.33, 5e7, 'forex'],
  ['JPY', 0.0067, 4e7, 'forex'],
  ['AUD', 0.65, 2e7, 'forex'],
];

export const MIN_SYMBOLS = 50;
export const DEFAULT_SYMBOLS = 60;
/** Most coins a model can list; the TradFi perpetuals come on top of the coins. */
export const MAX_SYMBOLS = COINS.length;

const TOP_VOLUME = 1.5e10;
const BOTTOM_VOLUME = 1e7;

/** Decimal places giving about five significant digits, never fewer than two. */
export function priceDecimals(price: number): number {
  return Math.max(2, 5 - Math.floor(Math.log10(price)));
}

function qtyDecimals(price: number): number {
  return Math.min(3, Math.max(0, Math.floor(Math.log10(price)) - 1));
}

function spec(base: string, price: number, index: number, quoteVolume24h: number, assetClass: AssetClass = 'crypto'): SymbolSpec {
  const priceDp = priceDecimals(price);
  return {
    base,
    symbol: `${base}USDT`,
    index,
    startPrice: price,
    quoteVolume24h,
    priceDp,
    tick: Math.pow(10, -priceDp),
    qtyDp: qtyDecimals(price),
    listedAt: 1569398400000 + index * 86_400_000 * 20,
    fundingIntervalHours: FUNDING_HOURS[base] ?? 8,
    assetClass,
  };
}

/** `count` coins (clamped to MIN_SYMBOLS..MAX_SYMBOLS), then the TradFi perpetuals. */
export function buildSymbols(count: number): SymbolSpec[] {
  const n = Math.min(MAX_SYMBOLS, Math.max(MIN_SYMBOLS, Math.floor(count)));
  const ratio = BOTTOM_VOLUME / TOP_VOLUME;
  // geometric descent from ~1.5e10 (BTC) to ~1e7 (the last coin)
  const coins = COINS.slice(0, n).map(([base, price], index) => spec(base, price, index, TOP_VOLUME * Math.pow(ratio, index / (n - 1))));
  return [...coins, ...TRADFI.map(([base, price, volume, assetClass], i) => spec(base, price, n + i, volume, assetClass))];
}
