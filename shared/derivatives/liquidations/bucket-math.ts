/**
 * Minute buckets of liquidated dollars, pure. Each symbol keeps, per UTC day, one string of 1440
 * minutes x [long, short] unsigned 32-bit whole dollars (BITFIELD u32, saturating): 11,520 bytes a
 * day at most, 30 days = 43,200 minutes = 345,600 bytes per symbol.
 */
import type { LiquidationSide } from './liquidation-event.js';

export const MINUTE_MS = 60_000;
export const DAY_MINUTES = 1440;
/** 30 days of minutes: the longest window /liquidations/recent serves. */
export const RETENTION_MINUTES = 43_200;
/** Bytes per minute in a day string: two u32. */
export const BYTES_PER_MINUTE = 8;
export const DAY_BYTES = DAY_MINUTES * BYTES_PER_MINUTE;
/** The largest dollars one bucket slot holds (u32); a busier minute saturates there. */
export const SLOT_MAX = 4_294_967_295;

export const minuteOf = (ts: number): number => Math.floor(ts / MINUTE_MS);
export const dayOfMinute = (minute: number): number => Math.floor(minute / DAY_MINUTES);

/** The u32 slot index of a minute and side inside its day string (BITFIELD `#index`). */
export function slotIndex(minute: number, side: LiquidationSide): number {
  return (minute - dayOfMinute(minute) * DAY_MINUTES) * 2 + (side === 'short_liquidated' ? 1 : 0);
}

/**
 * Bucket size for a window, growing with it so an answer stays under ~180 buckets:
 * up to 60 minutes: 1; up to 6 h: 5; up to 24 h: 15; up to 7 days: 60; up to 30 days: 240.
 */
export function recentBucketMinutes(windowMinutes: number): number {
  if (windowMinutes <= 60) return 1;
  if (windowMinutes <= 360) return 5;
  if (windowMinutes <= 1440) return 15;
  if (windowMinutes <= 10_080) return 60;
  return 240;
}

/** The byte range [start, end] (inclusive) of minutes [from, to] inside day `day`'s string. */
export function dayByteRange(day: number, from: number, to: number): { start: number; end: number } {
  const first = Math.max(from, day * DAY_MINUTES) - day * DAY_MINUTES;
  const last = Math.min(to, day * DAY_MINUTES + DAY_MINUTES - 1) - day * DAY_MINUTES;
  return { start: first * BYTES_PER_MINUTE, end: last * BYTES_PER_MINUTE + BYTES_PER_MINUTE - 1 };
}

/** The days touched by minutes [from, to]. */
export function daysOf(from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = dayOfMinute(from); d <= dayOfMinute(to); d++) out.push(d);
  return out;
}

export interface MinuteDollars {
  long: number;
  short: number;
}

/**
 * Reads minutes [from, to] of one day from a GETRANGE of that day's string starting at the first
 * requested minute (a string shorter than asked means the missing minutes are zero).
 */
export function decodeDayRange(
  bytes: Uint8Array,
  day: number,
  from: number,
  to: number,
  into: (minute: number, value: MinuteDollars) => void,
): void {
  const first = Math.max(from, day * DAY_MINUTES);
  const last = Math.min(to, day * DAY_MINUTES + DAY_MINUTES - 1);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let minute = first; minute <= last; minute++) {
    const offset = (minute - first) * BYTES_PER_MINUTE;
    if (offset >= bytes.byteLength) break;
    // the string ends at the last slot written: a long without its short slot yet
    const long = offset + 4 <= bytes.byteLength ? view.getUint32(offset) : 0;
    const short = offset + 8 <= bytes.byteLength ? view.getUint32(offset + 4) : 0;
    if (long !== 0 || short !== 0) into(minute, { long, short });
  }
}

export interface DollarBucket {
  /** Bucket start, ms (a multiple of the bucket size in UTC). */
  ts: number;
  long_usd: number;
  short_usd: number;
}

/** Sums minutes into buckets of `size` minutes over [from, to], oldest first, empty buckets included. */
export function bucketize(minutes: ReadonlyMap<number, MinuteDollars>, from: number, to: number, size: number): DollarBucket[] {
  const first = Math.floor(from / size) * size;
  const out: DollarBucket[] = [];
  for (let start = first; start <= to; start += size) out.push({ ts: start * MINUTE_MS, long_usd: 0, short_usd: 0 });
  for (const [minute, value] of minutes) {
    if (minute < from || minute > to) continue;
    const bucket = out[Math.floor((minute - first) / size)];
    bucket.long_usd += value.long;
    bucket.short_usd += value.short;
  }
  return out;
}
