/**
 * The venues' REST order-book answers (Binance USDⓈ-M GET /fapi/v1/depth, Bybit v5 GET
 * /v5/market/orderbook), read into one shape: levels as numbers, best first, and the venue's time.
 */
import { isRecord, toNumber } from '../parse-utils.js';

export interface ParsedDepth {
  bids: [number, number][];
  asks: [number, number][];
  /** The venue's time of the book, ms. */
  ts: number;
}

/** [["price", "size"], ...] as numbers; a malformed level ends the list (the rest of a broken answer is not trusted). */
function levels(raw: unknown): [number, number][] {
  if (!Array.isArray(raw)) throw new Error('depth: levels are not an array');
  const out: [number, number][] = [];
  for (const level of raw) {
    if (!Array.isArray(level)) break;
    const price = toNumber(level[0]);
    const size = toNumber(level[1]);
    if (price === undefined || size === undefined || !(price > 0) || !(size >= 0)) break;
    out.push([price, size]);
  }
  return out;
}

/** Binance: {lastUpdateId, E, T, bids, asks}. */
export function parseBinanceDepth(body: unknown): ParsedDepth {
  if (!isRecord(body)) throw new Error('binance depth: not an object');
  return { bids: levels(body.bids), asks: levels(body.asks), ts: toNumber(body.T) ?? toNumber(body.E) ?? 0 };
}

/** Bybit: {retCode, retMsg, result: {s, b, a, ts, u, seq, cts}, time}. */
export function parseBybitDepth(body: unknown): ParsedDepth {
  if (!isRecord(body) || body.retCode !== 0 || !isRecord(body.result)) throw new Error('bybit orderbook: not a successful answer');
  const r = body.result;
  return { bids: levels(r.b), asks: levels(r.a), ts: toNumber(r.ts) ?? toNumber(body.time) ?? 0 };
}
