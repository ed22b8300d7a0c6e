/** Binance USDⓈ-M bodies and stream payloads (fixtures/binance-usdm). */
import { fixed, fmt } from '../format.js';
import { MINUTE, type Candle, type VenueQuote } from '../market-model.js';
import type { LiquidationEvent } from '../sim-types.js';
import type { SymbolSpec } from '../symbols.js';
import type { AssetClass } from '../../../shared/engine/fees.js';
import { PERPETUAL_DELIVERY } from './common.js';

/** A contract listed by the venue: the perpetual, or a dated future kept to exercise filters. */
export interface BinanceContract {
  readonly name: string;
  readonly spec: SymbolSpec;
  readonly contractType: 'PERPETUAL' | 'TRADIFI_PERPETUAL' | 'CURRENT_QUARTER';
  readonly deliveryDate: number;
  /** Price multiplier vs. the perpetual (the basis of the dated future). */
  readonly basis: number;
}

/** A coin's perpetual is PERPETUAL; a stock's, metal's, index's or currency's TRADIFI_PERPETUAL, as Binance lists them. */
export function perpetual(spec: SymbolSpec): BinanceContract {
  const contractType = spec.assetClass === 'crypto' ? 'PERPETUAL' : 'TRADIFI_PERPETUAL';
  return { name: spec.symbol, spec, contractType, deliveryDate: PERPETUAL_DELIVERY, basis: 1 };
}

/**
 * exchangeInfo's underlyingType per class: COIN, EQUITY and COMMODITY as recorded rows show them
 * (fixtures/binance-usdm/exchange-info-tradfi.json); INDEX as Binance names its crypto indices; FOREX by the
 * same spelling (no recorded TradFi index or currency row yet).
 */
const UNDERLYING_TYPE: Readonly<Record<AssetClass, string>> = {
  crypto: 'COIN',
  stock: 'EQUITY',
  metal: 'COMMODITY',
  index: 'INDEX',
  forex: 'FOREX',
};

const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'];

/** `marketClosed`: a TradFi contract whose underlying market is closed is listed on BREAK, as Binance lists it. */
export function symbolInfo(k: BinanceContract, price: number, marketClosed = false): Record<string, unknown> {
  const { spec } = k;
  const step = fixed(Math.pow(10, -spec.qtyDp), spec.qtyDp);
  const maxQty = fixed(Math.max(1, Math.round(5e7 / price)), 0);
  const mktQty = fixed(Math.max(1, Math.round(5e6 / price)), 0);
  return {
    symbol: k.name,
    pair: spec.symbol,
    contractType: k.contractType,
    deliveryDate: k.deliveryDate,
    onboardDate: spec.listedAt,
    status: marketClosed && k.contractType === 'TRADIFI_PERPETUAL' ? 'BREAK' : 'TRADING',
    maintMarginPercent: '2.5000',
    requiredMarginPercent: '5.0000',
    baseAsset: spec.base,
    quoteAsset: 'USDT',
    marginAsset: 'USDT',
    pricePrecision: spec.priceDp,
    quantityPrecision: spec.qtyDp,
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: UNDERLYING_TYPE[spec.assetClass],
    underlyingSubType: spec.assetClass === 'crypto' ? [] : ['TradFi'],
    settlePlan: 0,
    triggerProtect: '0.0500',
    liquidationFee: '0.012500',
    marketTakeBound: '0.05',
    filters: [
      {
        minPrice: fixed(spec.tick, spec.priceDp),
        maxPrice: fixed(price * 20, spec.priceDp),
        filterType: 'PRICE_FILTER',
        tickSize: fixed(spec.tick, spec.priceDp),
      },
      { stepSize: step, filterType: 'LOT_SIZE', maxQty, minQty: step },
      { stepSize: step, filterType: 'MARKET_LOT_SIZE', maxQty: mktQty, minQty: step },
      { limit: 200, filterType: 'MAX_NUM_ORDERS' },
      { limit: 10, filterType: 'MAX_NUM_ALGO_ORDERS' },
      { notional: '5', filterType: 'MIN_NOTIONAL' },
      { multiplierDown: '0.9500', multiplierUp: '1.0500', multiplierDecimal: '4', filterType: 'PERCENT_PRICE' },
    ],
    orderTypes: ORDER_TYPES,
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
  };
}

export function exchangeInfo(now: number, symbols: Record<string, unknown>[]): Record<string, unknown> {
  return {
    timezone: 'UTC',
    serverTime: now,
    futuresType: 'U_MARGINED',
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 },
      { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300 },
    ],
    exchangeFilters: [],
    assets: ['USDT', 'BTC', 'BNB', 'ETH', 'USDC'].map((asset) => ({
      asset,
      marginAvailable: true,
      autoAssetExchange: asset === 'USDT' || asset === 'USDC' ? '-10000' : '0',
    })),
    symbols,
  };
}

/** Scales a perpetual quote to a dated contract (prices times its basis). */
function px(q: VenueQuote, k: BinanceContract, p: number): string {
  return k.basis === 1 ? fmt(p, q.spec.priceDp) : fixed(p * k.basis, q.spec.priceDp);
}

export function ticker24hr(q: VenueQuote, k: BinanceContract): Record<string, unknown> {
  const dp = q.spec.priceDp;
  const qdp = q.spec.qtyDp;
  return {
    symbol: k.name,
    priceChange: fixed((q.last - q.open24h) * k.basis, dp),
    priceChangePercent: fixed(q.changePct, 3),
    weightedAvgPrice: fixed((q.volume24h > 0 ? q.quoteVolume24h / q.volume24h : q.last) * k.basis, dp),
    lastPrice: px(q, k, q.last),
    lastQty: fixed(q.lastQty, qdp),
    openPrice: px(q, k, q.open24h),
    highPrice: px(q, k, q.high24h),
    lowPrice: px(q, k, q.low24h),
    volume: fixed(q.volume24h * (k.basis === 1 ? 1 : 0.01), qdp),
    quoteVolume: fixed(q.quoteVolume24h * (k.basis === 1 ? 1 : 0.01), 2),
    openTime: q.openTime,
    closeTime: q.ts,
    firstId: q.firstId,
    lastId: q.lastId,
    count: q.count,
  };
}

export function tickerPrice(q: VenueQuote, k: BinanceContract): Record<string, unknown> {
  return { symbol: k.name, price: px(q, k, q.last), time: q.ts };
}

/** GET /fapi/v1/premiumIndex element: mark, index, funding (a dated contract shows zero funding and nextFundingTime 0). */
export function premiumIndex(q: VenueQuote, k: BinanceContract): Record<string, unknown> {
  const perp = k.contractType !== 'CURRENT_QUARTER';
  return {
    symbol: k.name,
    markPrice: fixed(q.last * k.basis, 8),
    indexPrice: fixed(q.index, 8),
    estimatedSettlePrice: fixed(q.index, 8),
    lastFundingRate: fixed(perp ? q.fundingRate : 0, 8),
    interestRate: perp ? '0.00010000' : '0.00000000',
    nextFundingTime: perp ? q.nextFundingTime : 0,
    time: q.ts,
  };
}

/** The `24hrTicker` stream event (same numbers as the REST ticker, single-letter keys). */
export function tickerEvent(q: VenueQuote): Record<string, unknown> {
  const r = ticker24hr(q, perpetual(q.spec));
  return {
    e: '24hrTicker',
    E: q.ts,
    s: q.spec.symbol,
    p: r.priceChange,
    P: r.priceChangePercent,
    w: r.weightedAvgPrice,
    c: r.lastPrice,
    Q: r.lastQty,
    o: r.openPrice,
    h: r.highPrice,
    l: r.lowPrice,
    v: r.volume,
    q: r.quoteVolume,
    O: q.openTime,
    C: q.ts,
    F: q.firstId,
    L: q.lastId,
    n: q.count,
  };
}

/** REST kline row: times and trade count are numbers, the rest strings. */
export function klineRow(spec: SymbolSpec, c: Candle, minutes = 1): unknown[] {
  const dp = spec.priceDp;
  return [
    c.t,
    fmt(c.o, dp),
    fmt(c.h, dp),
    fmt(c.l, dp),
    fmt(c.c, dp),
    fixed(c.v, spec.qtyDp),
    c.t + minutes * MINUTE - 1,
    fixed(c.q, 5),
    c.n,
    fixed(c.v / 2, spec.qtyDp),
    fixed(c.q / 2, 5),
    '0',
  ];
}

export function klineEvent(spec: SymbolSpec, c: Candle, closed: boolean, now: number): Record<string, unknown> {
  const dp = spec.priceDp;
  return {
    e: 'kline',
    E: now,
    s: spec.symbol,
    k: {
      t: c.t,
      T: c.t + MINUTE - 1,
      s: spec.symbol,
      i: '1m',
      f: c.f,
      L: c.n > 0 ? c.f + c.n - 1 : c.f - 1,
      o: fmt(c.o, dp),
      c: fmt(c.c, dp),
      h: fmt(c.h, dp),
      l: fmt(c.l, dp),
      v: fixed(c.v, spec.qtyDp),
      n: c.n,
      x: closed,
      q: fixed(c.q, 4),
      V: fixed(c.v / 2, spec.qtyDp),
      Q: fixed(c.q / 2, 4),
      B: '0',
    },
  };
}

/** forceOrder: S is the liquidation order's side, so a liquidated long is a SELL. */
export function forceOrderEvent(spec: SymbolSpec, ev: LiquidationEvent): Record<string, unknown> {
  // fmt keeps the exact control-plane values even when they are off the lot/tick grid
  const qty = fmt(ev.qty, spec.qtyDp);
  const price = fmt(ev.price, spec.priceDp);
  return {
    e: 'forceOrder',
    E: ev.ts,
    o: {
      s: spec.symbol,
      S: ev.side === 'long' ? 'SELL' : 'BUY',
      o: 'LIMIT',
      f: 'IOC',
      q: qty,
      p: price,
      ap: price,
      X: 'FILLED',
      l: qty,
      z: qty,
      T: ev.ts,
    },
  };
}
