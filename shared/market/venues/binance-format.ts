/**
 * Binance USDⓈ-M futures wire formats (fixtures/binance-usdm). Pure: frames and REST bodies in,
 * normalized ticks, candles and markets out. Prices are strings, times are ms numbers, stream names
 * are lowercase while payload symbols are uppercase; combined streams wrap frames as {stream, data}.
 */
import { canonicalSymbol } from '../canonical-symbol.js';
import { excerpt, isRecord, toEpochMs, toNumber, toPrice, toStr } from '../parse-utils.js';
import { emptyFrame, isCompleteCandle, withVolumes, venueTick } from '../types.js';
import { candlesFromRows, intervalNames, bySymbol } from './venue-rows.js';
import type { Candle, FrameResult, Listing, VenueCandle, VenueMarket } from '../types.js';
import { binanceClass } from '../venue-classes.js';
import { listing, listingState } from '../venue-status.js';

export const BINANCE_ALL_TICKERS = '!ticker@arr';
/** Streams per SUBSCRIBE message; Binance accepts 10 incoming messages per second and 1024 streams per connection. */
export const BINANCE_STREAMS_PER_MESSAGE = 100;

export function binanceKlineStream(symbol: string): string {
  return `${symbol.toLowerCase()}@kline_1m`;
}

export function binanceSubscribe(streams: readonly string[], id: number, unsubscribe = false): string {
  return JSON.stringify({ method: unsubscribe ? 'UNSUBSCRIBE' : 'SUBSCRIBE', params: streams, id });
}

function parseTicker(data: unknown, out: FrameResult): void {
  if (!isRecord(data) || data.e !== '24hrTicker') {
    out.issues.push(`binance: not a 24hrTicker: ${excerpt(data)}`);
    return;
  }
  const symbol = canonicalSymbol(data.s);
  const price = toPrice(data.c);
  const ts = toEpochMs(data.E);
  if (!symbol || price === undefined || ts === undefined) {
    out.issues.push(`binance: bad 24hrTicker: ${excerpt(data)}`);
    return;
  }
  out.ticks.push(venueTick('binance', symbol, price, ts, toNumber(data.P), toNumber(data.q)));
}

function parseKline(data: Record<string, unknown>, out: FrameResult): void {
  const k = data.k;
  const symbol = canonicalSymbol(isRecord(k) ? k.s : undefined) ?? canonicalSymbol(data.s);
  if (!isRecord(k) || !symbol) {
    out.issues.push(`binance: bad kline: ${excerpt(data)}`);
    return;
  }
  if (k.i !== '1m') return;
  const candle: Partial<VenueCandle> = {
    venue: 'binance',
    symbol,
    openTime: toEpochMs(k.t),
    open: toPrice(k.o),
    high: toPrice(k.h),
    low: toPrice(k.l),
    close: toPrice(k.c),
    volume: toNumber(k.v),
    closed: k.x === true,
  };
  if (!isCompleteCandle(candle)) {
    out.issues.push(`binance: bad kline: ${excerpt(data)}`);
    return;
  }
  out.candles.push(candle);
}

/** One frame of /stream (wrapped) or /ws (raw); acks and unknown events yield nothing. */
export function parseBinanceMessage(msg: unknown): FrameResult {
  const out = emptyFrame();
  if (!isRecord(msg) && !Array.isArray(msg)) {
    out.issues.push(`binance: not an object: ${excerpt(msg)}`);
    return out;
  }
  if (isRecord(msg) && 'id' in msg && ('result' in msg || 'error' in msg)) {
    if (msg.error !== undefined && msg.error !== null) out.issues.push(`binance: request refused: ${excerpt(msg.error)}`);
    return out;
  }
  const data = isRecord(msg) && 'stream' in msg && 'data' in msg ? msg.data : msg;
  if (Array.isArray(data)) {
    for (const item of data) parseTicker(item, out);
    return out;
  }
  if (!isRecord(data)) {
    out.issues.push(`binance: bad data: ${excerpt(msg)}`);
    return out;
  }
  if (data.e === '24hrTicker') parseTicker(data, out);
  else if (data.e === 'kline') parseKline(data, out);
  return out;
}

/**
 * GET /fapi/v1/exchangeInfo -> the USDT-margined perpetuals that trade now, coins (PERPETUAL) and TradFi
 * (TRADIFI_PERPETUAL), each classed by its underlyingType (venue-classes.ts); a TradFi one on status BREAK
 * is listed closed.
 */
export function parseBinanceExchangeInfo(body: unknown): Listing[] {
  if (!isRecord(body) || !Array.isArray(body.symbols)) throw new Error(`binance exchangeInfo: unexpected body ${excerpt(body)}`);
  const out: Listing[] = [];
  for (const s of body.symbols) {
    if (!isRecord(s)) continue;
    if (s.quoteAsset !== 'USDT' || (s.marginAsset !== undefined && s.marginAsset !== 'USDT')) continue;
    const symbol = canonicalSymbol(s.symbol);
    if (!symbol || symbol !== s.symbol) continue;
    const assetClass = binanceClass(s.contractType, s.underlyingType, symbol);
    // a TradFi contract on BREAK: listed, its underlying market closed (weekends, holidays)
    const state = assetClass && listingState('binance', s.status, assetClass);
    if (assetClass && state) out.push(listing(symbol, assetClass, state));
  }
  return out;
}

/** GET /fapi/v1/ticker/24hr (array form) -> quote volume per symbol. */
export function parseBinanceTickers24h(body: unknown): Map<string, number> {
  if (!Array.isArray(body)) throw new Error(`binance ticker/24hr: unexpected body ${excerpt(body)}`);
  return bySymbol(body, (t) => [toStr(t.symbol), toNumber(t.quoteVolume)]);
}

export function binanceMarkets(exchangeInfo: unknown, tickers: unknown): VenueMarket[] {
  return withVolumes('binance', parseBinanceExchangeInfo(exchangeInfo), parseBinanceTickers24h(tickers));
}

const BINANCE_INTERVALS = intervalNames('1=1m 3=3m 5=5m 15=15m 30=30m 60=1h 120=2h 240=4h 360=6h 480=8h 720=12h 1440=1d 4320=3d 10080=1w');

export function binanceInterval(minutes: number): string | undefined {
  return BINANCE_INTERVALS.get(minutes);
}

/** GET /fapi/v1/klines rows (oldest first; times numbers, prices strings) -> candles. */
export function parseBinanceKlines(body: unknown, now: number): Candle[] {
  if (!Array.isArray(body)) throw new Error(`binance klines: unexpected body ${excerpt(body)}`);
  return candlesFromRows('binance', body, (_c, row) => {
    const closeTime = toEpochMs(row[6]);
    return closeTime === undefined ? undefined : closeTime < now;
  });
}
