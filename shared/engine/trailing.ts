/**
 * Trailing stops: the stop sits trail_pct below the best price seen since entry (above it for a
 * short) and only ever tightens, because the best price (the high-water mark) only ever improves. Pure.
 */
import { direction, trimNumber, type Side } from './side.js';

/** The stop a high-water mark gives: hwm x (1 - pct/100) for a long, hwm x (1 + pct/100) for a short. */
export function trailingStop(side: Side, hwm: number, trailPct: number): number {
  return trimNumber(hwm * (1 - (direction(side) * trailPct) / 100));
}

/** The better of the high-water mark and a price: the higher for a long, the lower for a short. */
export function ratchetHwm(side: Side, hwm: number, price: number): number {
  return side === 'long' ? Math.max(hwm, price) : Math.min(hwm, price);
}

/** The tighter of two stops (the one closer to the price from the losing side); null when neither is set. */
export function tighterStop(side: Side, a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return side === 'long' ? Math.max(a, b) : Math.min(a, b);
}

/** Candles are one minute long: the minute of a mark decides which candles it may be checked against. */
const MINUTE_MS = 60_000;

/** What a trailing stop needs of a position. */
export interface TrailState {
  side: Side;
  trail_pct: number | null;
  trail_hwm: number | null;
  /** Time of the newest price folded into trail_hwm (ms); absent until it first moves. */
  trail_ts?: number;
  /**
   * The mark as it stood when the minute of its newest move began, and that mark's time: the stop
   * in force for that minute's candle once a positions read has moved the mark within the minute.
   * Absent until the mark first moves.
   */
  trail_prev_hwm?: number;
  trail_prev_ts?: number;
}

/** A ratchet: the new mark and its time, and the mark the minute of that time began with. */
export interface TrailMove {
  trail_hwm: number;
  trail_ts: number;
  trail_prev_hwm: number;
  trail_prev_ts: number;
}

/**
 * Folds a price seen up to time `at` into the high-water mark, or null when the position does not
 * trail or the price does not improve the mark. A mark older than the start of `at`'s minute is
 * the one that minute began with and is kept as the previous mark; a mark from within that minute
 * (a read moved it already) keeps the previous mark it had.
 */
export function ratchetTrail(p: TrailState, price: number, at: number): TrailMove | null {
  if (p.trail_pct === null || p.trail_hwm === null) return null;
  const hwm = ratchetHwm(p.side, p.trail_hwm, price);
  if (hwm === p.trail_hwm) return null;
  const markTs = p.trail_ts ?? 0;
  const minuteStart = at - (at % MINUTE_MS);
  const previous =
    markTs > minuteStart && p.trail_prev_hwm !== undefined && p.trail_prev_ts !== undefined
      ? { trail_prev_hwm: p.trail_prev_hwm, trail_prev_ts: p.trail_prev_ts }
      : { trail_prev_hwm: p.trail_hwm, trail_prev_ts: markTs };
  return { trail_hwm: hwm, trail_ts: Math.max(markTs, at), ...previous };
}

/**
 * The high-water mark made only of prices up to `from` (a window's start), so a window is never
 * checked against a stop moved by its own prices: the mark itself when it is that old (`markTs`
 * stands in for a mark that never moved), else the previous mark when that one is, else null.
 */
export function markBefore(p: TrailState, from: number, markTs: number): number | null {
  if (p.trail_pct === null || p.trail_hwm === null) return null;
  if ((p.trail_ts ?? markTs) <= from) return p.trail_hwm;
  if (p.trail_prev_hwm !== undefined && p.trail_prev_ts !== undefined && p.trail_prev_ts <= from) return p.trail_prev_hwm;
  return null;
}

/** The stop in force: the tighter of the fixed stop-loss and the trailing stop. */
export function effectiveStop(p: TrailState & { sl: number | null }): number | null {
  const trail = p.trail_pct === null || p.trail_hwm === null ? null : trailingStop(p.side, p.trail_hwm, p.trail_pct);
  return tighterStop(p.side, p.sl, trail);
}
