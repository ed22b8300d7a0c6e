/**
 * OKX v5 SWAP wire formats (fixtures/okx-v5). Pure. Nearly every value is a string, `ts` included;
 * instruments are named BTC-USDT-SWAP; candles are 9 strings, newest first, the last one `confirm`
 * ("1" = closed). Tickers live on /ws/v5/public, candles on /ws/v5/business.
 */
import { baseOf, canonicalSymbol } from '../canonical-symbol.js';
import { excerpt, frameArg, isRecord, toEpochMs, toNumber, toPrice, unwrapCodeData } from '../parse-utils.js';
import { emptyFrame, ohlcvFromRow, pushCandles, withVolumes, venueTick } from '../types.js';
import { candlesFromRows, intervalNames, listingsOf, bySymbol } from './venue-rows.js';
import type { Candle, FrameResult, Listing, VenueCandle, VenueMarket } from '../types.js';
import { okxClass } from '../venue-classes.js';
import { listingState } from '../venue-status.js';

/** Args per subscribe message: OKX caps a request at 64 KB, about 1,000 args; stay far below. */
export const OKX_ARGS_PER_MESSAGE = 100;
export const OKX_PUBLIC_PATH = '/ws/v5/public';
export const OKX_BUSINESS_PATH = '/ws/v5/business';

/** BTCUSDT -> BTC-USDT-SWAP */
export function okxInstId(symbol: string): string {
  return `${baseOf(symbol)}-USDT-SWAP`;
}

/** BTC-USDT-SWAP -> BTCUSDT; anything that is not a USDT swap -> null. */
export function okxSymbol(instId: unknown): string | null {
  if (typeof instId !== 'string' || !/^[A-Z0-9]+-USDT-SWAP$/.test(instId)) return null;
  return canonicalSymbol(instId);
}

/** A topic key is `<channel>:<instId>`, the same on both sockets. */
export function okxTopic(channel: 'tickers' | 'candle1m', symbol: string): string {
  return `${channel}:${okxInstId(symbol)}`;
}

export function okxSubscribe(topics: readonly string[], id: string, unsubscribe = false): string {
  const args = topics.map((t) => {
    const [channel, instId] = t.split(':');
    return { channel, instId };
  });
  return JSON.stringify({ id, op: unsubscribe ? 'unsubscribe' : 'subscribe', args });
}

function parseTickers(msg: Record<string, unknown>, out: FrameResult): void {
  for (const t of Array.isArray(msg.data) ? msg.data : [undefined]) {
    const symbol = isRecord(t) ? okxSymbol(t.instId) : null;
    const price = isRecord(t) ? toPrice(t.last) : undefined;
    const ts = isRecord(t) ? toEpochMs(t.ts) : undefined;
    if (!isRecord(t) || !symbol || price === undefined || ts === undefined) {
      out.issues.push(`okx: bad ticker: ${excerpt(t ?? msg)}`);
      continue;
    }
    const open24h = toPrice(t.open24h);
    // volCcy24h is in base coin for SWAP: times the price gives USDT
    const baseVolume = toNumber(t.volCcy24h);
    const change = open24h === undefined ? undefined : (price / open24h - 1) * 100;
    out.ticks.push(venueTick('okx', symbol, price, ts, change, baseVolume === undefined ? undefined : baseVolume * price));
  }
}

/** [ts, o, h, l, c, vol (contracts), volCcy (base), volCcyQuote, confirm] */
function candleFromRow(row: unknown, symbol: string): Partial<VenueCandle> {
  if (!Array.isArray(row) || row.length < 9) return {};
  return { venue: 'okx', symbol, ...ohlcvFromRow(row, 6), closed: row[8] === '1' ? true : row[8] === '0' ? false : undefined };
}

/** One frame of /ws/v5/public or /ws/v5/business ("pong" text is handled by the socket). */
export function parseOkxMessage(msg: unknown): FrameResult {
  const out = emptyFrame();
  const arg = frameArg('okx', msg, out.issues);
  if (!arg || !isRecord(msg)) return out;
  if (arg.channel === 'tickers') parseTickers(msg, out);
  else if (arg.channel === 'candle1m') pushCandles(out, 'okx: bad candle', msg, okxSymbol(arg.instId), candleFromRow);
  return out;
}

/** Unwraps {code:"0", msg, data}; any other code throws with the message. */
export function okxData(body: unknown): unknown[] {
  return unwrapCodeData('okx', body, '0');
}

/**
 * GET /api/v5/public/instruments?instType=SWAP -> linear USDT swaps, each classed by its instCategory and listed by
 * its state (venue-status.ts: live, or suspend on a TradFi swap, listed closed).
 */
export function parseOkxInstruments(body: unknown): Listing[] {
  return listingsOf(
    okxData(body),
    (i) => (i.ctType === 'linear' && i.settleCcy === 'USDT' ? [okxSymbol(i.instId), okxClass(i.instCategory)] : null),
    (i, assetClass) => listingState('okx', i.state, assetClass),
  );
}

/** GET /api/v5/market/tickers?instType=SWAP -> 24h quote volume (volCcy24h x last) per symbol. */
export function parseOkxTickers(body: unknown): Map<string, number> {
  return bySymbol(okxData(body), (t) => {
    const last = toPrice(t.last);
    const baseVolume = toNumber(t.volCcy24h);
    return [okxSymbol(t.instId), last === undefined || baseVolume === undefined ? undefined : baseVolume * last];
  });
}

export function okxMarkets(instruments: unknown, tickers: unknown): VenueMarket[] {
  return withVolumes('okx', parseOkxInstruments(instruments), parseOkxTickers(tickers));
}

/** OKX bars; 6h and longer use the UTC-aligned variants (the plain ones follow Hong Kong time). */
const OKX_BARS = intervalNames('1=1m 3=3m 5=5m 15=15m 30=30m 60=1H 120=2H 240=4H 360=6Hutc 720=12Hutc 1440=1Dutc 4320=3Dutc 10080=1Wutc');

export function okxBar(minutes: number): string | undefined {
  return OKX_BARS.get(minutes);
}

/** GET /api/v5/market/candles or history-candles (newest first) -> oldest first. */
export function parseOkxCandles(body: unknown): Candle[] {
  return candlesFromRows('okx', okxData(body), (_c, row) => (row[8] === '1' ? true : row[8] === '0' ? false : undefined), 6);
}
