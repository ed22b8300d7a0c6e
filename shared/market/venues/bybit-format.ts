/**
 * Bybit v5 linear wire formats (fixtures/bybit-v5). Pure. REST values are all strings (retCode and
 * time are numbers); lists are newest first. The `tickers.<SYM>` topic sends a snapshot, then deltas
 * carrying only the changed fields, so the parser keeps the last full state per symbol.
 */
import { canonicalSymbol } from '../canonical-symbol.js';
import { excerpt, isRecord, toEpochMs, toNumber, toPrice, toStr } from '../parse-utils.js';
import { emptyFrame, pushCandles, withVolumes, venueTick } from '../types.js';
import { candlesFromRows, intervalNames, bySymbol } from './venue-rows.js';
import type { Candle, FrameResult, Listing, VenueCandle, VenueMarket } from '../types.js';
import { bybitClass } from '../venue-classes.js';
import { listing, listingState } from '../venue-status.js';

/** Bybit accepts at most 10 args per subscribe message. */
export const BYBIT_ARGS_PER_MESSAGE = 10;

export function bybitTopics(symbol: string): string[] {
  return [`tickers.${symbol}`, `kline.1.${symbol}`];
}

export function bybitSubscribe(topics: readonly string[], reqId: string, unsubscribe = false): string {
  return JSON.stringify({ req_id: reqId, op: unsubscribe ? 'unsubscribe' : 'subscribe', args: topics });
}

export const BYBIT_PING = JSON.stringify({ op: 'ping' });

/** The last full ticker per symbol, merged from snapshot and deltas. */
export type BybitTickerState = Map<string, Record<string, unknown>>;

export function createBybitTickerState(): BybitTickerState {
  return new Map();
}

function parseTicker(msg: Record<string, unknown>, state: BybitTickerState, out: FrameResult): void {
  const data = msg.data;
  const symbol = isRecord(data) ? canonicalSymbol(data.symbol) : null;
  if (!isRecord(data) || !symbol) {
    out.issues.push(`bybit: bad ticker: ${excerpt(msg)}`);
    return;
  }
  const merged = msg.type === 'snapshot' ? { ...data } : { ...(state.get(symbol) ?? {}), ...data };
  state.set(symbol, merged);
  const price = toPrice(merged.lastPrice);
  const ts = toEpochMs(msg.ts);
  if (price === undefined || ts === undefined) {
    // a delta before any snapshot may lack the price: keep the state and wait for more
    if (msg.type === 'snapshot' || ts === undefined) out.issues.push(`bybit: bad ticker: ${excerpt(msg)}`);
    return;
  }
  // price24hPcnt is a fraction (0.015 = +1.5 %)
  const change = toNumber(merged.price24hPcnt);
  out.ticks.push(venueTick('bybit', symbol, price, ts, change === undefined ? undefined : change * 100, toNumber(merged.turnover24h)));
}

function klineCandle(k: unknown, symbol: string): Partial<VenueCandle> {
  if (!isRecord(k)) return {};
  return {
    venue: 'bybit',
    symbol,
    openTime: toEpochMs(k.start),
    open: toPrice(k.open),
    high: toPrice(k.high),
    low: toPrice(k.low),
    close: toPrice(k.close),
    volume: toNumber(k.volume),
    closed: typeof k.confirm === 'boolean' ? k.confirm : undefined,
  };
}

/** One frame of /v5/public/linear; op replies (subscribe, pong) yield nothing, refusals an issue. */
export function parseBybitMessage(msg: unknown, state: BybitTickerState): FrameResult {
  const out = emptyFrame();
  if (!isRecord(msg)) {
    out.issues.push(`bybit: not an object: ${excerpt(msg)}`);
    return out;
  }
  if (typeof msg.op === 'string') {
    if (msg.success === false) out.issues.push(`bybit: ${msg.op} refused: ${excerpt(msg.ret_msg)}`);
    return out;
  }
  const topic = toStr(msg.topic);
  if (!topic) {
    out.issues.push(`bybit: frame without topic: ${excerpt(msg)}`);
    return out;
  }
  if (topic.startsWith('tickers.')) parseTicker(msg, state, out);
  else if (topic.startsWith('kline.1.'))
    pushCandles(out, 'bybit: bad kline', msg, canonicalSymbol(topic.slice('kline.1.'.length)), klineCandle);
  return out;
}

/** Unwraps {retCode, retMsg, result}; a non-zero retCode throws with the message. */
export function bybitResult(body: unknown): Record<string, unknown> {
  if (!isRecord(body) || body.retCode !== 0 || !isRecord(body.result)) {
    const msg = isRecord(body) ? `${String(body.retCode)} ${String(body.retMsg)}` : excerpt(body);
    throw new Error(`bybit: ${msg}`);
  }
  return body.result;
}

/**
 * GET /v5/market/instruments-info?category=linear page -> USDT perpetuals trading now, each classed by its
 * symbolType (venue-classes.ts) and listed by its status (venue-status.ts), and the next cursor.
 */
export function parseBybitInstruments(body: unknown): { symbols: Listing[]; nextCursor: string } {
  const result = bybitResult(body);
  const list = Array.isArray(result.list) ? result.list : [];
  const symbols: Listing[] = [];
  for (const i of list) {
    if (!isRecord(i)) continue;
    if (i.contractType !== 'LinearPerpetual' || i.quoteCoin !== 'USDT') continue;
    if (i.settleCoin !== undefined && i.settleCoin !== 'USDT') continue;
    const symbol = canonicalSymbol(i.symbol);
    if (!symbol || symbol !== i.symbol) continue;
    const assetClass = bybitClass(i.symbolType, symbol);
    const state = assetClass && listingState('bybit', i.status, assetClass);
    if (assetClass && state) symbols.push(listing(symbol, assetClass, state));
  }
  return { symbols, nextCursor: toStr(result.nextPageCursor) ?? '' };
}

/** GET /v5/market/tickers?category=linear -> 24h turnover (USDT) per symbol. */
export function parseBybitTickers(body: unknown): Map<string, number> {
  const list = bybitResult(body).list;
  return bySymbol(Array.isArray(list) ? list : [], (t) => [toStr(t.symbol), toNumber(t.turnover24h)]);
}

export function bybitMarkets(symbols: readonly Listing[], tickers: unknown): VenueMarket[] {
  return withVolumes('bybit', symbols, parseBybitTickers(tickers));
}

const BYBIT_INTERVALS = intervalNames('1=1 3=3 5=5 15=15 30=30 60=60 120=120 240=240 360=360 720=720 1440=D 10080=W');

export function bybitInterval(minutes: number): string | undefined {
  return BYBIT_INTERVALS.get(minutes);
}

/** GET /v5/market/kline rows ([start, o, h, l, c, volume, turnover] strings, newest first) -> oldest first. */
export function parseBybitKlines(body: unknown, intervalMinutes: number, now: number): Candle[] {
  const list = bybitResult(body).list;
  return candlesFromRows('bybit', Array.isArray(list) ? list : [], (c) => c.openTime + intervalMinutes * 60_000 <= now);
}
