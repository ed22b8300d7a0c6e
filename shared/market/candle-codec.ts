/** How candles and venue prices are stored as JSON in Redis (short keys: 1,440 per symbol add up). */
import { parseJsonRecord, toNumber } from './parse-utils.js';
import { isVenue, type Candle, type Venue, type VenueCandle, type VenueTick } from './types.js';
import type { VenuePrice } from './median-of-fresh.js';

interface StoredCandle {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  venue: Venue;
  x?: 0;
}

export function encodeCandle(c: VenueCandle): string {
  const stored: StoredCandle = { t: c.openTime, o: c.open, h: c.high, l: c.low, c: c.close, v: c.volume, venue: c.venue };
  if (!c.closed) stored.x = 0;
  return JSON.stringify(stored);
}

export function decodeCandle(text: string | null | undefined): Candle | null {
  const raw = parseJsonRecord(text);
  if (!raw) return null;
  const openTime = toNumber(raw.t);
  const open = toNumber(raw.o);
  const high = toNumber(raw.h);
  const low = toNumber(raw.l);
  const close = toNumber(raw.c);
  const volume = toNumber(raw.v);
  if (openTime === undefined || open === undefined || high === undefined || low === undefined) return null;
  if (close === undefined || volume === undefined) return null;
  const candle: Candle = { openTime, open, high, low, close, volume, closed: raw.x !== 0 };
  if (isVenue(raw.venue)) candle.venue = raw.venue;
  return candle;
}

export function encodeVenuePrice(t: VenueTick, ts: number): string {
  return JSON.stringify({ price: t.price, ts, changePct24h: t.changePct24h, quoteVolume24h: t.quoteVolume24h });
}

export function decodeVenuePrices(hash: Record<string, string>): VenuePrice[] {
  const out: VenuePrice[] = [];
  for (const [venue, text] of Object.entries(hash)) {
    if (!isVenue(venue)) continue;
    const raw = parseJsonRecord(text);
    if (!raw) continue;
    const price = toNumber(raw.price);
    const ts = toNumber(raw.ts);
    if (price === undefined || ts === undefined) continue;
    const vp: VenuePrice = { venue, price, ts };
    const change = toNumber(raw.changePct24h);
    const volume = toNumber(raw.quoteVolume24h);
    if (change !== undefined) vp.changePct24h = change;
    if (volume !== undefined) vp.quoteVolume24h = volume;
    out.push(vp);
  }
  return out;
}
