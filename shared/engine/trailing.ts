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

/** What a trailing stop needs of a position. */
export interface TrailState {
  side: Side;
  trail_pct: number | null;
  trail_hwm: number | null;
  /** Time of the newest price folded into trail_hwm (ms); absent until it first moves. */
  trail_ts?: number;
}

/**
 * Folds a price seen up to time `at` into the high-water mark: the new mark and its time, or null
 * when the position does not trail or the price does not improve the mark.
 */
export function ratchetTrail(p: TrailState, price: number, at: number): { trail_hwm: number; trail_ts: number } | null {
  if (p.trail_pct === null || p.trail_hwm === null) return null;
  const hwm = ratchetHwm(p.side, p.trail_hwm, price);
  if (hwm === p.trail_hwm) return null;
  return { trail_hwm: hwm, trail_ts: Math.max(p.trail_ts ?? 0, at) };
}

/** The stop in force: the tighter of the fixed stop-loss and the trailing stop. */
export function effectiveStop(p: TrailState & { sl: number | null }): number | null {
  const trail = p.trail_pct === null || p.trail_hwm === null ? null : trailingStop(p.side, p.trail_hwm, p.trail_pct);
  return tighterStop(p.side, p.sl, trail);
}
