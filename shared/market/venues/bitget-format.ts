/**
 * Bitget v2 mix, productType USDT-FUTURES. Pure. Values are strings; `ts` strings of ms; change24h
 * is a ratio (0.0123 = +1.23 %). Candle rows are [ts, o, h, l, c, baseVol, quoteVol(, usdtVol)]
 * with no closed flag: a candle is closed when a newer openTime arrives for that symbol, so the
 * parser keeps the open candle per symbol.
 */
import { canonicalSymbol } from '../canonical-symbol.js';
import { excerpt, frameArg, isRecord, toEpochMs, toNumber, toPrice, toStr, unwrapCodeData } from '../parse-utils.js';
import { emptyFrame, isCompleteCandle, ohlcvFromRow, withVolumes, venueTick } from '../types.js';
import { candlesFromRows, intervalNames, sameSymbol, listingsOf, bySymbol } from './venue-rows.js';
import type { Candle, FrameResult, Listing, VenueCandle, VenueMarket } from '../types.js';

export const BITGET_PRODUCT = 'USDT-FUTURES';
/** Args per subscribe message (Bitget allows 10 messages per second and asks for small batches). */
export const BITGET_ARGS_PER_MESSAGE = 50;

export function bitgetTopic(channel: 'ticker' | 'candle1m', symbol: string): string {
  return `${channel}:${symbol}`;
}

export function bitgetSubscribe(topics: readonly string[], unsubscribe = false): string {
  const args = topics.map((t) => {
    const [channel, instId] = t.split(':');
    return { instType: BITGET_PRODUCT, channel, instId };
  });
  return JSON.stringify({ op: unsubscribe ? 'unsubscribe' : 'subscribe', args });
}

/** The open (newest) candle per symbol. */
export type BitgetCandleState = Map<string, VenueCandle>;

export function createBitgetCandleState(): BitgetCandleState {
  return new Map();
}

function parseTickers(msg: Record<string, unknown>, out: FrameResult): void {
  for (const t of Array.isArray(msg.data) ? msg.data : [undefined]) {
    const symbol = isRecord(t) ? canonicalSymbol(t.instId ?? t.symbol) : null;
    const price = isRecord(t) ? toPrice(t.lastPr) : undefined;
    const ts = isRecord(t) ? (toEpochMs(t.ts) ?? toEpochMs(msg.ts)) : undefined;
    if (!isRecord(t) || !symbol || price === undefined || ts === undefined) {
      out.issues.push(`bitget: bad ticker: ${excerpt(t ?? msg)}`);
      continue;
    }
    // change24h is a fraction (0.015 = +1.5 %)
    const change = toNumber(t.change24h);
    out.ticks.push(venueTick('bitget', symbol, price, ts, change === undefined ? undefined : change * 100, toNumber(t.quoteVolume)));
  }
}

/** [ts, o, h, l, c, base volume, quote volume, ...]; closed is decided by the next row. */
function candleFromRow(row: unknown, symbol: string): Partial<VenueCandle> {
  return { venue: 'bitget', symbol, ...ohlcvFromRow(row), closed: false };
}

/**
 * Rows older than the open candle are closed; a newer row closes the open one (with the last values
 * seen). A subscription snapshot carries many past rows: only the newest closed one is reported,
 * the rest is history the store does not need from this venue.
 */
function parseCandles(msg: Record<string, unknown>, instId: unknown, state: BitgetCandleState, out: FrameResult): void {
  const symbol = canonicalSymbol(instId);
  if (!symbol || !Array.isArray(msg.data)) {
    out.issues.push(`bitget: bad candle: ${excerpt(msg)}`);
    return;
  }
  const rows: VenueCandle[] = [];
  for (const row of msg.data) {
    const c = candleFromRow(row, symbol);
    if (isCompleteCandle(c)) rows.push(c);
    else out.issues.push(`bitget: bad candle: ${excerpt(row)}`);
  }
  if (rows.length === 0) return;
  rows.sort((a, b) => a.openTime - b.openTime);
  const newest = rows[rows.length - 1];
  const open = state.get(symbol);
  const closedRows = rows.filter((r) => r.openTime < newest.openTime || (open !== undefined && r.openTime < open.openTime));
  const reported = msg.action === 'snapshot' ? closedRows.slice(-1) : closedRows;
  if (open && open.openTime < newest.openTime && !rows.some((r) => r.openTime === open.openTime)) {
    out.candles.push({ ...open, closed: true });
  }
  for (const r of reported) out.candles.push({ ...r, closed: true });
  if (!open || newest.openTime >= open.openTime) {
    state.set(symbol, newest);
    out.candles.push(newest);
  }
}

/** One frame of /v2/ws/public ("pong" text is handled by the socket). */
export function parseBitgetMessage(msg: unknown, state: BitgetCandleState): FrameResult {
  const out = emptyFrame();
  const arg = frameArg('bitget', msg, out.issues);
  if (!arg || !isRecord(msg)) return out;
  if (arg.channel === 'ticker') parseTickers(msg, out);
  else if (arg.channel === 'candle1m') parseCandles(msg, arg.instId, state, out);
  return out;
}

/** Unwraps {code:"00000", msg, data}; any other code throws with the message. */
export function bitgetData(body: unknown): unknown[] {
  return unwrapCodeData('bitget', body, '00000');
}

/** GET /api/v2/mix/market/contracts?productType=USDT-FUTURES -> perpetuals trading normally. */
export function parseBitgetContracts(body: unknown): Listing[] {
  // Bitget's contracts name no underlying class: its perpetuals are coins (venue-classes.ts)
  return listingsOf(bitgetData(body), (c) =>
    c.symbolType === 'perpetual' && c.symbolStatus === 'normal' && c.quoteCoin === 'USDT' ? [sameSymbol(c.symbol), 'crypto'] : null,
  );
}

/** GET /api/v2/mix/market/tickers?productType=USDT-FUTURES -> 24h USDT volume per symbol. */
export function parseBitgetTickers(body: unknown): Map<string, number> {
  return bySymbol(bitgetData(body), (t) => [toStr(t.symbol), toNumber(t.usdtVolume) ?? toNumber(t.quoteVolume)]);
}

export function bitgetMarkets(contracts: unknown, tickers: unknown): VenueMarket[] {
  return withVolumes('bitget', parseBitgetContracts(contracts), parseBitgetTickers(tickers));
}

/** Bitget granularities; 6h and longer use the UTC-aligned variants. */
const BITGET_GRANULARITIES = intervalNames(
  '1=1m 3=3m 5=5m 15=15m 30=30m 60=1H 240=4H 360=6Hutc 720=12Hutc 1440=1Dutc 4320=3Dutc 10080=1Wutc',
);

export function bitgetGranularity(minutes: number): string | undefined {
  return BITGET_GRANULARITIES.get(minutes);
}

/** GET /api/v2/mix/market/candles rows -> oldest first; closed when the bar has ended by `now`. */
export function parseBitgetCandles(body: unknown, intervalMinutes: number, now: number): Candle[] {
  return candlesFromRows('bitget', bitgetData(body), (c) => c.openTime + intervalMinutes * 60_000 <= now);
}
