/**
 * Our market data in Binance USDⓈ-M's shapes: exchangeInfo's symbols and filters, tickers, klines, funding. Binance
 * sends prices and sizes as decimal strings. Pure.
 */
import type { AssetClass } from '../engine/fees.js';
import type { Candle } from '../market/types.js';

/** Binance's deliveryDate of a perpetual (2100-12-25). */
const PERPETUAL_DELIVERY = 4133404800000;
/** Minutes per Binance kline interval we serve (candles aggregate whole minutes). */
export const KLINE_INTERVALS: Readonly<Record<string, number>> = {
  '1m': 1,
  '3m': 3,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '2h': 120,
  '4h': 240,
  '6h': 360,
  '8h': 480,
  '12h': 720,
  '1d': 1440,
};
/** The smallest order the dialect takes, USDT of notional: Binance's usual MIN_NOTIONAL. */
export const MIN_NOTIONAL_USD = 5;
/** The engine sizes by margin and takes any quantity; these bound it as Binance's LOT_SIZE does. */
const MAX_QTY = 1e9;
/** A tick of six significant digits of the price, a step whose notional is about a cent. */
const TICK_DIGITS = 6;
const STEP_NOTIONAL_USD = 0.01;

/** Binance's underlyingType for our classes. */
const UNDERLYING: Readonly<Record<AssetClass, string>> = {
  crypto: 'COIN',
  stock: 'EQUITY',
  metal: 'COMMODITY',
  index: 'INDEX',
  forex: 'FOREX',
};

/** A number as a plain decimal string (no exponent), as Binance writes them. */
export function decimal(value: number, decimals = 12): string {
  if (!Number.isFinite(value)) return '0';
  // no more than 15 significant digits: past them toFixed writes the binary float's noise (64999.949999999997)
  const integerDigits = value === 0 ? 1 : Math.floor(Math.log10(Math.abs(value))) + 1;
  const text = value.toFixed(Math.max(0, Math.min(20, decimals, 15 - integerDigits)));
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** Digits after the point of a power of ten (0.001 -> 3, 10 -> 0). */
const decimalsOf = (power: number): number => Math.max(0, -Math.round(Math.log10(power)));

export interface SymbolPrecision {
  tickSize: number;
  stepSize: number;
  pricePrecision: number;
  quantityPrecision: number;
}

/** Tick and step of a symbol at its price: powers of ten, so orders round the way Binance's filters make clients round. */
export function symbolPrecision(price: number): SymbolPrecision {
  const magnitude = Math.floor(Math.log10(price > 0 ? price : 1));
  const tickSize = 10 ** (magnitude - TICK_DIGITS + 1);
  const stepSize = 10 ** Math.ceil(Math.log10(STEP_NOTIONAL_USD / (price > 0 ? price : 1)));
  return { tickSize, stepSize, pricePrecision: decimalsOf(tickSize), quantityPrecision: decimalsOf(stepSize) };
}

export interface ListedSymbol {
  symbol: string;
  assetClass: AssetClass;
  price: number;
  /** A listing venue says the underlying market is closed now. */
  closed?: boolean;
}

/** One symbol of exchangeInfo: a USDT-margined perpetual with its filters. */
export function exchangeInfoSymbol({ symbol, assetClass, price, closed }: ListedSymbol): Record<string, unknown> {
  const p = symbolPrecision(price);
  const tick = decimal(p.tickSize, p.pricePrecision);
  const step = decimal(p.stepSize, p.quantityPrecision);
  return {
    symbol,
    pair: symbol,
    contractType: 'PERPETUAL',
    deliveryDate: PERPETUAL_DELIVERY,
    onboardDate: 0,
    status: closed ? 'BREAK' : 'TRADING',
    baseAsset: symbol.replace(/USDT$/, ''),
    quoteAsset: 'USDT',
    marginAsset: 'USDT',
    pricePrecision: p.pricePrecision,
    quantityPrecision: p.quantityPrecision,
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: UNDERLYING[assetClass],
    underlyingSubType: [],
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: tick, maxPrice: decimal(price * 1000, p.pricePrecision), tickSize: tick },
      { filterType: 'LOT_SIZE', minQty: step, maxQty: decimal(MAX_QTY), stepSize: step },
      { filterType: 'MARKET_LOT_SIZE', minQty: step, maxQty: decimal(MAX_QTY), stepSize: step },
      { filterType: 'MIN_NOTIONAL', notional: decimal(MIN_NOTIONAL_USD) },
    ],
    orderTypes: ['MARKET', 'LIMIT', 'STOP_MARKET', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
    timeInForce: ['GTC'],
  };
}

export interface TickerInput {
  symbol: string;
  price: number;
  /** 24h change in percent, null when no venue tells. */
  changePct24h: number | null;
  /** 24h traded value in USDT over the venues, 0 unknown. */
  quoteVolume24h: number;
  ts: number;
}

export function tickerPrice(t: TickerInput): Record<string, unknown> {
  return { symbol: t.symbol, price: decimal(t.price), time: t.ts };
}

/**
 * The 24h ticker. We keep the last price and its 24h change, not the day's range: high and low are the larger and
 * smaller of the open (derived from the change) and the last price; volume is the quote volume over the last price.
 */
export function ticker24hr(t: TickerInput): Record<string, unknown> {
  const change = t.changePct24h ?? 0;
  const open = t.price / (1 + change / 100);
  return {
    symbol: t.symbol,
    priceChange: decimal(t.price - open, 8),
    priceChangePercent: decimal(change, 3),
    weightedAvgPrice: decimal(t.price),
    lastPrice: decimal(t.price),
    lastQty: '0',
    openPrice: decimal(open, 8),
    highPrice: decimal(Math.max(open, t.price), 8),
    lowPrice: decimal(Math.min(open, t.price), 8),
    volume: decimal(t.price > 0 ? t.quoteVolume24h / t.price : 0, 3),
    quoteVolume: decimal(t.quoteVolume24h, 2),
    openTime: t.ts - 86_400_000,
    closeTime: t.ts,
    firstId: 0,
    lastId: 0,
    count: 0,
  };
}

/** The best bid and ask: from the order book we hold, else a synthetic one a tick around the price. */
export function bookTicker(
  symbol: string,
  price: number,
  ts: number,
  best?: { bid: [number, number]; ask: [number, number] },
): Record<string, unknown> {
  const { tickSize } = symbolPrecision(price);
  const bid = best?.bid ?? [price - tickSize / 2, 0];
  const ask = best?.ask ?? [price + tickSize / 2, 0];
  return { symbol, bidPrice: decimal(bid[0]), bidQty: decimal(bid[1]), askPrice: decimal(ask[0]), askQty: decimal(ask[1]), time: ts };
}

/** A kline row: open time, OHLC, volume, close time, quote volume, trades, taker buy volumes (not kept: 0), ignore. */
export function klineRow(c: Candle, intervalMinutes: number): (string | number)[] {
  const quote = c.volume * c.close;
  return [
    c.openTime,
    decimal(c.open),
    decimal(c.high),
    decimal(c.low),
    decimal(c.close),
    decimal(c.volume),
    c.openTime + intervalMinutes * 60_000 - 1,
    decimal(quote, 4),
    0,
    '0',
    '0',
    '0',
  ];
}

export interface FundingInput {
  symbol: string;
  mark: number;
  /** The current (predicted) rate per interval, a fraction. */
  rate: number;
  nextFundingTime: number;
  now: number;
}

export function premiumIndex(f: FundingInput): Record<string, unknown> {
  return {
    symbol: f.symbol,
    markPrice: decimal(f.mark, 8),
    indexPrice: decimal(f.mark, 8),
    estimatedSettlePrice: decimal(f.mark, 8),
    lastFundingRate: decimal(f.rate, 8),
    interestRate: '0.00010000',
    nextFundingTime: f.nextFundingTime,
    time: f.now,
  };
}

export function fundingRateRow(symbol: string, time: number, rate: number, mark: number): Record<string, unknown> {
  return { symbol, fundingTime: time, fundingRate: decimal(rate, 8), markPrice: decimal(mark, 8) };
}

/** Binance's eight-hour funding grid (00, 08, 16 UTC): the next time after `now`, when a symbol's own is unknown. */
export function nextEightHour(now: number): number {
  const eight = 8 * 3_600_000;
  return Math.floor(now / eight) * eight + eight;
}
