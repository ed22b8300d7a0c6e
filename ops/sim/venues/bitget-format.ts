/**
 * Bitget v2 mix (USDT-FUTURES) bodies and channel payloads. No fixtures exist for these; the shapes
 * follow the official examples: Get-All-Symbols-Contracts, Get-All-Symbol-Ticker, Get-Candle-Data,
 * websocket Tickers-Channel and Candlesticks-Channel.
 */
import { fixed, fmt, trim } from '../format.js';
import type { Candle, VenueQuote } from '../market-model.js';
import type { SymbolSpec } from '../symbols.js';

export function envelope(data: unknown, now: number, code = '00000', msg = 'success'): Record<string, unknown> {
  return { code, msg, requestTime: now, data };
}

export function contract(spec: SymbolSpec, price: number): Record<string, unknown> {
  return {
    symbol: spec.symbol,
    baseCoin: spec.base,
    quoteCoin: 'USDT',
    buyLimitPriceRatio: '0.05',
    sellLimitPriceRatio: '0.05',
    feeRateUpRatio: '0.005',
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0006',
    openCostUpRatio: '0.01',
    supportMarginCoins: ['USDT'],
    minTradeNum: trim(Math.pow(10, -spec.qtyDp), spec.qtyDp),
    priceEndStep: '1',
    volumePlace: String(spec.qtyDp),
    pricePlace: String(spec.priceDp),
    sizeMultiplier: trim(Math.pow(10, -spec.qtyDp), spec.qtyDp),
    symbolType: 'perpetual',
    minTradeUSDT: '5',
    maxSymbolOrderNum: '200',
    maxProductOrderNum: '400',
    maxPositionNum: '150',
    symbolStatus: 'normal',
    offTime: '-1',
    limitOpenTime: '-1',
    deliveryTime: '',
    deliveryStartTime: '',
    launchTime: String(spec.listedAt),
    fundInterval: '8',
    minLever: '1',
    maxLever: spec.index < 2 ? '125' : '75',
    posLimit: '0.05',
    maintainTime: '',
    maxMarketOrderQty: fixed(Math.max(1, Math.round(5e6 / price)), spec.qtyDp),
    maxOrderQty: fixed(Math.max(1, Math.round(5e7 / price)), spec.qtyDp),
    isRwa: 'NO',
  };
}

function core(q: VenueQuote): Record<string, string> {
  const dp = q.spec.priceDp;
  const qdp = q.spec.qtyDp;
  return {
    lastPr: fmt(q.last, dp),
    askPr: fmt(q.ask, dp),
    bidPr: fmt(q.bid, dp),
    bidSz: fixed(20000 / q.last, qdp),
    askSz: fixed(25000 / q.last, qdp),
    high24h: fmt(q.high24h, dp),
    low24h: fmt(q.low24h, dp),
    ts: String(q.ts),
    // a ratio, not a percentage (0.0123 = +1.23%)
    change24h: fixed(q.changePct / 100, 5),
    baseVolume: fixed(q.volume24h, Math.max(2, qdp)),
    quoteVolume: fixed(q.quoteVolume24h, 3),
    openUtc: fmt(q.openUtc0, dp),
    indexPrice: fixed(q.index, dp),
    fundingRate: fixed(q.fundingRate, 6),
    holdingAmount: fixed(q.openInterest, Math.max(2, qdp)),
    open24h: fmt(q.open24h, dp),
    markPrice: fmt(q.last, dp),
  };
}

export function restTicker(q: VenueQuote): Record<string, unknown> {
  const t = core(q);
  return {
    symbol: q.spec.symbol,
    lastPr: t.lastPr,
    askPr: t.askPr,
    bidPr: t.bidPr,
    bidSz: t.bidSz,
    askSz: t.askSz,
    high24h: t.high24h,
    low24h: t.low24h,
    ts: t.ts,
    change24h: t.change24h,
    baseVolume: t.baseVolume,
    quoteVolume: t.quoteVolume,
    usdtVolume: t.quoteVolume,
    openUtc: t.openUtc,
    changeUtc24h: fixed(q.openUtc0 > 0 ? q.last / q.openUtc0 - 1 : 0, 5),
    indexPrice: t.indexPrice,
    fundingRate: t.fundingRate,
    holdingAmount: t.holdingAmount,
    deliveryStartTime: null,
    deliveryTime: null,
    deliveryStatus: '',
    open24h: t.open24h,
    markPrice: t.markPrice,
  };
}

export function wsTicker(q: VenueQuote): Record<string, unknown> {
  const t = core(q);
  return {
    instId: q.spec.symbol,
    lastPr: t.lastPr,
    bidPr: t.bidPr,
    askPr: t.askPr,
    bidSz: t.bidSz,
    askSz: t.askSz,
    open24h: t.open24h,
    high24h: t.high24h,
    low24h: t.low24h,
    change24h: t.change24h,
    fundingRate: t.fundingRate,
    nextFundingTime: String(q.nextFundingTime),
    markPrice: t.markPrice,
    indexPrice: t.indexPrice,
    holdingAmount: t.holdingAmount,
    baseVolume: t.baseVolume,
    quoteVolume: t.quoteVolume,
    openUtc: t.openUtc,
    symbolType: 1,
    symbol: q.spec.symbol,
    deliveryPrice: '0',
    ts: t.ts,
  };
}

/** REST row: [ts, open, high, low, close, base volume, quote volume]; the channel adds USDT volume. */
export function candleRow(spec: SymbolSpec, c: Candle, withUsdt: boolean): string[] {
  const dp = spec.priceDp;
  const row = [String(c.t), fmt(c.o, dp), fmt(c.h, dp), fmt(c.l, dp), fmt(c.c, dp), trim(c.v, Math.max(2, spec.qtyDp)), trim(c.q, 4)];
  if (withUsdt) row.push(trim(c.q, 4));
  return row;
}
