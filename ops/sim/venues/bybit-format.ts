/** Bybit v5 linear bodies and topic payloads (fixtures/bybit-v5). REST values are all strings. */
import { fixed, fmt } from '../format.js';
import { MINUTE, type Candle, type VenueQuote } from '../market-model.js';
import type { LiquidationEvent } from '../sim-types.js';
import type { SymbolSpec } from '../symbols.js';
import type { AssetClass } from '../../../shared/engine/fees.js';

/** A listed linear contract: the USDT perpetual, or a USDC one kept to exercise filters. */
export interface BybitContract {
  readonly name: string;
  readonly spec: SymbolSpec;
  readonly settle: 'USDT' | 'USDC';
}

export function envelope(result: unknown, now: number, retCode = 0, retMsg = 'OK'): Record<string, unknown> {
  return { retCode, retMsg, result, retExtInfo: {}, time: now };
}

/**
 * instruments-info symbolType per class, as Bybit spells it ("" for a coin, "stock", "commodity", "forex");
 * Bybit lists no index perpetual that we know of, so the sim's Bybit lists none (bybit.ts).
 */
const BYBIT_SYMBOL_TYPE: Readonly<Partial<Record<AssetClass, string>>> = { stock: 'stock', metal: 'commodity', forex: 'forex' };

export function instrument(k: BybitContract, price: number): Record<string, unknown> {
  const { spec } = k;
  const dp = spec.priceDp;
  const step = fixed(Math.pow(10, -spec.qtyDp), spec.qtyDp);
  return {
    symbol: k.name,
    symbolId: k.settle === 'USDT' ? spec.index + 1 : 1000 + spec.index,
    contractType: 'LinearPerpetual',
    status: 'Trading',
    baseCoin: spec.base,
    quoteCoin: k.settle,
    launchTime: String(spec.listedAt),
    deliveryTime: '0',
    deliveryFeeRate: '',
    priceScale: String(dp),
    leverageFilter: { minLeverage: '1', maxLeverage: spec.index < 2 ? '100.00' : '50.00', leverageStep: '0.01' },
    priceFilter: { minPrice: fixed(spec.tick, dp), maxPrice: fixed(price * 20, dp), tickSize: fixed(spec.tick, dp) },
    lotSizeFilter: {
      maxOrderQty: fixed(Math.max(1, Math.round(5e7 / price)), spec.qtyDp),
      minOrderQty: step,
      qtyStep: step,
      postOnlyMaxOrderQty: fixed(Math.max(1, Math.round(5e7 / price)), spec.qtyDp),
      maxMktOrderQty: fixed(Math.max(1, Math.round(5e6 / price)), spec.qtyDp),
      minNotionalValue: '5',
    },
    unifiedMarginTrade: true,
    fundingInterval: spec.fundingIntervalHours * 60,
    settleCoin: k.settle,
    copyTrading: k.settle === 'USDT' ? 'both' : 'none',
    upperFundingRate: '0.005',
    lowerFundingRate: '-0.005',
    isPreListing: false,
    preListingInfo: null,
    riskParameters: { priceLimitRatioX: '0.01', priceLimitRatioY: '0.02' },
    symbolType: BYBIT_SYMBOL_TYPE[k.spec.assetClass] ?? '',
  };
}

/** Shared numbers of the REST ticker and the `tickers.*` topic. */
function tickerCore(q: VenueQuote): Record<string, string> {
  const dp = q.spec.priceDp;
  const qdp = q.spec.qtyDp;
  return {
    lastPrice: fmt(q.last, dp),
    indexPrice: fixed(q.index, dp),
    markPrice: fmt(q.last, dp),
    prevPrice24h: fmt(q.open24h, dp),
    price24hPcnt: fixed(q.changePct / 100, 6),
    highPrice24h: fmt(q.high24h, dp),
    lowPrice24h: fmt(q.low24h, dp),
    prevPrice1h: fmt(q.open1h, dp),
    openInterest: fixed(q.openInterest, qdp),
    openInterestValue: fixed(q.openInterest * q.last, 2),
    turnover24h: fixed(q.quoteVolume24h, 4),
    volume24h: fixed(q.volume24h, 4),
    fundingRate: fixed(q.fundingRate, 6),
    nextFundingTime: String(q.nextFundingTime),
    bid1Price: fmt(q.bid, dp),
    bid1Size: fixed(20000 / q.last, qdp),
    ask1Price: fmt(q.ask, dp),
    ask1Size: fixed(25000 / q.last, qdp),
  };
}

export function restTicker(q: VenueQuote, name: string): Record<string, unknown> {
  const t = tickerCore(q);
  return {
    symbol: name,
    lastPrice: t.lastPrice,
    indexPrice: t.indexPrice,
    markPrice: t.markPrice,
    prevPrice24h: t.prevPrice24h,
    price24hPcnt: t.price24hPcnt,
    highPrice24h: t.highPrice24h,
    lowPrice24h: t.lowPrice24h,
    prevPrice1h: t.prevPrice1h,
    openInterest: t.openInterest,
    openInterestValue: t.openInterestValue,
    turnover24h: t.turnover24h,
    volume24h: t.volume24h,
    fundingRate: t.fundingRate,
    nextFundingTime: t.nextFundingTime,
    predictedDeliveryPrice: '',
    basisRate: '',
    deliveryFeeRate: '',
    deliveryTime: '0',
    ask1Size: t.ask1Size,
    bid1Price: t.bid1Price,
    ask1Price: t.ask1Price,
    bid1Size: t.bid1Size,
    basis: '',
    preOpenPrice: '',
    preQty: '',
    curPreListingPhase: '',
    fundingIntervalHour: String(q.spec.fundingIntervalHours),
    basisRateYear: '',
    fundingCap: '0.005',
  };
}

/** Full `tickers.*` record; the caller sends it whole as snapshot, or diffs it for deltas. */
export function wsTicker(q: VenueQuote, prev: Record<string, string> | undefined): Record<string, string> {
  const t = tickerCore(q);
  let tickDirection = prev?.tickDirection ?? 'ZeroPlusTick';
  if (prev) {
    const last = Number(t.lastPrice);
    const before = Number(prev.lastPrice);
    if (last > before) tickDirection = 'PlusTick';
    else if (last < before) tickDirection = 'MinusTick';
    else tickDirection = tickDirection.includes('Plus') ? 'ZeroPlusTick' : 'ZeroMinusTick';
  }
  return {
    symbol: q.spec.symbol,
    tickDirection,
    price24hPcnt: t.price24hPcnt,
    lastPrice: t.lastPrice,
    prevPrice24h: t.prevPrice24h,
    highPrice24h: t.highPrice24h,
    lowPrice24h: t.lowPrice24h,
    prevPrice1h: t.prevPrice1h,
    markPrice: t.markPrice,
    indexPrice: t.indexPrice,
    openInterest: t.openInterest,
    openInterestValue: t.openInterestValue,
    turnover24h: t.turnover24h,
    volume24h: t.volume24h,
    fundingIntervalHour: String(q.spec.fundingIntervalHours),
    fundingCap: '0.005',
    nextFundingTime: t.nextFundingTime,
    fundingRate: t.fundingRate,
    bid1Price: t.bid1Price,
    bid1Size: t.bid1Size,
    ask1Price: t.ask1Price,
    ask1Size: t.ask1Size,
    preOpenPrice: '',
    preQty: '',
    curPreListingPhase: '',
  };
}

/** Fields of `next` that differ from `prev`, always with the symbol (Bybit delta semantics). */
export function tickerDelta(prev: Record<string, string>, next: Record<string, string>): Record<string, string> | undefined {
  const out: Record<string, string> = { symbol: next.symbol };
  let changed = false;
  for (const [k, v] of Object.entries(next)) {
    if (prev[k] !== v) {
      out[k] = v;
      changed = true;
    }
  }
  return changed ? out : undefined;
}

/** REST kline row: [start, open, high, low, close, volume, turnover], all strings. */
export function klineRow(spec: SymbolSpec, c: Candle): string[] {
  const dp = spec.priceDp;
  return [String(c.t), fmt(c.o, dp), fmt(c.h, dp), fmt(c.l, dp), fmt(c.c, dp), fixed(c.v, spec.qtyDp), fixed(c.q, 4)];
}

export function wsKline(spec: SymbolSpec, c: Candle, confirm: boolean, now: number): Record<string, unknown> {
  const dp = spec.priceDp;
  return {
    topic: `kline.1.${spec.symbol}`,
    data: [
      {
        start: c.t,
        end: c.t + MINUTE - 1,
        interval: '1',
        open: fmt(c.o, dp),
        close: fmt(c.c, dp),
        high: fmt(c.h, dp),
        low: fmt(c.l, dp),
        volume: fixed(c.v, spec.qtyDp),
        turnover: fixed(c.q, 4),
        confirm,
        timestamp: now,
      },
    ],
    ts: now,
    type: 'snapshot',
  };
}

/** allLiquidation: S is the liquidated position's side, so a long is "Buy" (opposite of Binance). */
export function allLiquidation(spec: SymbolSpec, ev: LiquidationEvent, now: number): Record<string, unknown> {
  return {
    topic: `allLiquidation.${spec.symbol}`,
    type: 'snapshot',
    ts: now,
    data: [
      { T: ev.ts, s: spec.symbol, S: ev.side === 'long' ? 'Buy' : 'Sell', v: fmt(ev.qty, spec.qtyDp), p: fmt(ev.price, spec.priceDp) },
    ],
  };
}
