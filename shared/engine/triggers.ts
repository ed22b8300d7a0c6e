/**
 * What the sweep decides for one open position and the prices of a window (a closed 1-minute candle,
 * or one live price). Pure.
 *
 * - Stop-loss, trailing stop and liquidation are crossed when the window reaches them on the losing
 *   side (long: low <= level; short: high >= level); of those crossed, the one the price reaches
 *   first is the nearest to it (the highest for a long): a stop above the liquidation price fires
 *   before it, a stop below it never gets the chance. On a tie the stop wins over the liquidation
 *   and the fixed stop over the trailing one.
 * - The take-profit is crossed when the window reaches it on the winning side.
 * - A window that crosses both a losing level and the target settles the losing one: a candle does
 *   not say which came first, and the conservative outcome is the one a trader must plan for.
 * - Everything settles at its level.
 * - A window that starts at or before the open does not apply: its extremes may predate the
 *   position (a position opened during a minute waits for the next candle; live prices cover it
 *   meanwhile).
 * - A candle fires the client's levels (stop-loss, take-profit, trailing stop) only when its minute
 *   started at or after they were last set (levels_ts): its extremes may predate them (a stop set at
 *   :30 must not fire on a low at :10). A live price is the price now and fires them at once. The
 *   liquidation price is no client level and is always checked.
 * - The trailing stop is checked only against prices newer than its high-water mark: a candle's
 *   extreme moves the stop only after that candle was checked against the stop in force, and a
 *   retried candle finds the mark newer than itself and does not fire on the stop it moved. When a
 *   positions read moved the mark within the candle's minute, the candle is checked against the
 *   stop the minute began with (looser, as a trailing stop only tightens): a low below it crossed
 *   whichever stop was in force at the time, and settles at that older level, the conservative one.
 */
import type { Side } from './side.js';
import { markBefore, ratchetTrail, trailingStop, type TrailMove, type TrailState } from './trailing.js';

/** Every close reason a closed position carries (close_reason; trades show it as via). */
export const CLOSE_REASONS = {
  manual: 'manual',
  closeAll: 'close_all',
  stopLoss: 'stop_loss',
  takeProfit: 'take_profit',
  trailingStop: 'trailing_stop',
  liquidation: 'liquidation',
} as const;

export type CloseReason = (typeof CLOSE_REASONS)[keyof typeof CLOSE_REASONS];
export type TriggerReason = typeof CLOSE_REASONS.stopLoss | typeof CLOSE_REASONS.takeProfit | typeof CLOSE_REASONS.trailingStop | typeof CLOSE_REASONS.liquidation;

/** The levels of a position the sweep checks. */
export interface TriggerLevels extends TrailState {
  side: Side;
  sl: number | null;
  tp: number | null;
  liq_price: number;
}

export interface PriceRange {
  low: number;
  high: number;
}

/** Prices seen over a span of time: a candle's low and high over its minute, or one live price. */
export interface PriceWindow extends PriceRange {
  /** Start of the span (a candle's minute, a live price's time), ms. */
  from: number;
  /** End of the span (the minute's end, the live price's time), ms. */
  to: number;
}

/** One live price as a window: from and to are its time. */
export function liveWindow(price: number, ts: number): PriceWindow {
  return { low: price, high: price, from: ts, to: ts };
}

export interface Trigger {
  reason: TriggerReason;
  /** The level, which is also the exit price. */
  price: number;
}

export interface SweepState extends TriggerLevels {
  opened_ts: number;
  /** When the client last changed sl, tp or trail_pct (ms; the open sets it); absent on older positions, whose opened_ts stands in. */
  levels_ts?: number;
}

export type SweepDecision = { kind: 'settle'; trigger: Trigger } | ({ kind: 'ratchet' } & TrailMove) | { kind: 'none' };

const NONE: SweepDecision = { kind: 'none' };

/** Whether a losing level is reached by the window's worst price (a long's low, a short's high). */
const reachedLosing = (long: boolean, worst: number, level: number): boolean => (long ? worst <= level : worst >= level);

/** Whether a losing level is strictly nearer the price than another (higher for a long), so reached first. */
const nearer = (long: boolean, level: number, than: number): boolean => (long ? level > than : level < than);

/**
 * The level a range crosses first (see the rules above), or null. `trailing` false leaves the
 * trailing stop out. No closures or arrays: the naive scan runs it on every open position.
 */
export function findTrigger(p: TriggerLevels, range: PriceRange, trailing: boolean): Trigger | null {
  const long = p.side === 'long';
  const worst = long ? range.low : range.high;
  // in tie order (stop-loss, trailing stop, liquidation): a later level replaces only a strictly farther one
  let reason: TriggerReason | null = null;
  let level = 0;
  if (p.sl !== null && reachedLosing(long, worst, p.sl)) {
    reason = CLOSE_REASONS.stopLoss;
    level = p.sl;
  }
  if (trailing && p.trail_pct !== null && p.trail_hwm !== null) {
    const stop = trailingStop(p.side, p.trail_hwm, p.trail_pct);
    if (reachedLosing(long, worst, stop) && (reason === null || nearer(long, stop, level))) {
      reason = CLOSE_REASONS.trailingStop;
      level = stop;
    }
  }
  if (reachedLosing(long, worst, p.liq_price) && (reason === null || nearer(long, p.liq_price, level))) {
    reason = CLOSE_REASONS.liquidation;
    level = p.liq_price;
  }
  if (reason !== null) return { reason, price: level };
  if (p.tp !== null && (long ? range.high >= p.tp : range.low <= p.tp)) return { reason: CLOSE_REASONS.takeProfit, price: p.tp };
  return null;
}

/**
 * Whether a window may fire the client's levels: a live price always (it is the price now), a
 * candle only when its minute started at or after they were last set.
 */
export function levelsInForce(p: Pick<SweepState, 'opened_ts' | 'levels_ts'>, w: PriceWindow, candle: boolean): boolean {
  return !candle || (p.levels_ts ?? p.opened_ts) <= w.from;
}

/**
 * Settle, ratchet the trailing stop, or nothing. `candle`: the window is a closed candle (the
 * minute sweep), which may ratchet; otherwise a live price. A position that settles does not ratchet.
 */
export function decide(p: SweepState, w: PriceWindow, candle: boolean): SweepDecision {
  if (p.opened_ts >= w.from) return NONE;
  const levels = levelsInForce(p, w, candle);
  const mark = levels ? markBefore(p, w.from, p.opened_ts) : null;
  const checked = !levels ? { ...p, sl: null, tp: null } : mark !== null && mark !== p.trail_hwm ? { ...p, trail_hwm: mark } : p;
  const trigger = findTrigger(checked, w, mark !== null);
  if (trigger) return { kind: 'settle', trigger };
  if (!candle) return NONE;
  const moved = ratchetTrail(p, p.side === 'long' ? w.high : w.low, w.to);
  return moved ? { kind: 'ratchet', ...moved } : NONE;
}
