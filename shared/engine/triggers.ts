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
 * - Everything settles at its level, but with gap-aware exits (a position stamped with
 *   exit_slippage_bps: the profile's exit_slippage) a stop-loss, trailing stop or liquidation whose
 *   window opened beyond it (a candle's open, or the live price itself) settles at that open: the
 *   market never traded at the level. A take-profit still settles at its level, never better.
 * - A window that starts at or before the open does not apply: its extremes may predate the
 *   position (a position opened during a minute waits for the next candle; live prices cover it
 *   meanwhile).
 * - A candle fires the client's levels (stop-loss, take-profit, trailing stop) as they were when its
 *   minute started. When the client changed them within the minute (levels_ts), the bar does not say
 *   whether its low and high came before or after the change: it settles only when every order of
 *   them around the change triggers something (the levels the minute began with over the part
 *   before, the new ones over the part after), at the worst of those outcomes for the trader. So a
 *   stop that stayed through the change fires (a target set at :30 does not hide the old stop's low
 *   at :10), and neither a level set at :30 on a low at :10 nor one removed at :30 on a low at :50
 *   does. A live price is the price now and fires the levels at once. The liquidation price is no
 *   client level and is always checked.
 * - The trailing stop is checked only against prices newer than its high-water mark: a candle's
 *   extreme moves the stop only after that candle was checked against the stop in force, and a
 *   retried candle finds the mark newer than itself and does not fire on the stop it moved. When a
 *   positions read moved the mark within the candle's minute, the candle is checked against the
 *   stop the minute began with (looser, as a trailing stop only tightens): a low below it crossed
 *   whichever stop was in force at the time, and settles at that older level, the conservative one.
 */
import { MINUTE_MS } from './order-rules.js';
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

export type TriggerReason =
  typeof CLOSE_REASONS.stopLoss | typeof CLOSE_REASONS.takeProfit | typeof CLOSE_REASONS.trailingStop | typeof CLOSE_REASONS.liquidation;

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
  /** The span's first price (a candle's open, a live price itself), for gap-aware exits; absent: settle at the level. */
  open?: number;
}

/** One live price as a window: from and to are its time. */
export function liveWindow(price: number, ts: number): PriceWindow {
  return { low: price, high: price, from: ts, to: ts, open: price };
}

export interface Trigger {
  reason: TriggerReason;
  /** The level, which is also the exit price. */
  price: number;
}

/** The client's levels a position had before a change, and when they had been set (ms). */
export interface PriorLevels {
  sl: number | null;
  tp: number | null;
  trail_pct: number | null;
  ts: number;
}

export interface SweepState extends TriggerLevels {
  opened_ts: number;
  /** When the client last changed sl, tp or trail_pct (ms; the open sets it); absent on older positions, whose opened_ts stands in. */
  levels_ts?: number;
  /** The levels the minute of levels_ts began with (absent until a change, or when the position opened within that minute). */
  levels_prev?: PriorLevels;
  /** Present: gap-aware exits (the rules above). */
  exit_slippage_bps?: number;
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
 * Whether a window may fire the client's levels as they stand: a live price always (it is the price
 * now), a candle only when its minute started at or after they were last set.
 */
export function levelsInForce(p: Pick<SweepState, 'opened_ts' | 'levels_ts'>, w: PriceWindow, candle: boolean): boolean {
  return !candle || (p.levels_ts ?? p.opened_ts) <= w.from;
}

/**
 * What sltp stamps when it changes the levels at `now`: the time, and the levels the minute of
 * `now` began with: the current ones when they were set before that minute, else (a change
 * within the minute already) the ones that change kept. Pure.
 */
export function levelsChange(
  p: Pick<SweepState, 'sl' | 'tp' | 'trail_pct' | 'opened_ts' | 'levels_ts' | 'levels_prev'>,
  now: number,
): Pick<SweepState, 'levels_ts' | 'levels_prev'> {
  const since = p.levels_ts ?? p.opened_ts;
  if (since > now - (now % MINUTE_MS))
    return p.levels_prev === undefined ? { levels_ts: now } : { levels_ts: now, levels_prev: p.levels_prev };
  return { levels_ts: now, levels_prev: { sl: p.sl, tp: p.tp, trail_pct: p.trail_pct, ts: since } };
}

/** The trigger of levels over a window, the trailing stop as it stood before the window (markBefore). */
function triggerOf(p: SweepState, w: PriceWindow): Trigger | null {
  const mark = markBefore(p, w.from, p.opened_ts);
  const checked = mark !== null && mark !== p.trail_hwm ? { ...p, trail_hwm: mark } : p;
  return findTrigger(checked, w, mark !== null);
}

/** The trigger of levels at one price of a window. */
const triggerAt = (p: SweepState, w: PriceWindow, price: number): Trigger | null => triggerOf(p, { ...w, low: price, high: price });

/**
 * A candle of a minute within which the client changed the levels (see the rules above): each
 * order of its low and high around the change, the part before under the levels the minute began
 * with, the part after under the new ones; a trigger only when every order has one, the worst.
 * With no levels known from the minute's start, the liquidation alone. A trailing stop the change
 * cleared has no mark left to check, so the part before it counts as without one.
 */
function acrossChange(p: SweepState, w: PriceWindow): Trigger | null {
  const prior = p.levels_prev;
  if (prior === undefined || prior.ts > w.from) return findTrigger({ ...p, sl: null, tp: null }, w, false);
  const before: SweepState = { ...p, sl: prior.sl, tp: prior.tp, trail_pct: prior.trail_pct };
  const orders = [
    triggerOf(before, w),
    triggerOf(p, w),
    triggerAt(before, w, w.low) ?? triggerAt(p, w, w.high),
    triggerAt(before, w, w.high) ?? triggerAt(p, w, w.low),
  ];
  let worst: Trigger | null = null;
  for (const t of orders) {
    if (t === null) return null;
    if (worst === null || (p.side === 'long' ? t.price < worst.price : t.price > worst.price)) worst = t;
  }
  return worst;
}

/**
 * A losing trigger (stop-loss, trailing stop, liquidation) whose window opened beyond its level
 * settles at the open; a take-profit keeps its level (a gap never pays the trader more).
 */
export function gapFill(trigger: Trigger, side: Side, open: number | undefined): Trigger {
  if (open === undefined || trigger.reason === CLOSE_REASONS.takeProfit) return trigger;
  const beyond = side === 'long' ? open < trigger.price : open > trigger.price;
  return beyond ? { reason: trigger.reason, price: open } : trigger;
}

/**
 * Settle, ratchet the trailing stop, or nothing. `candle`: the window is a closed candle (the
 * minute sweep), which may ratchet; otherwise a live price. A position that settles does not ratchet.
 */
export function decide(p: SweepState, w: PriceWindow, candle: boolean): SweepDecision {
  if (p.opened_ts >= w.from) return NONE;
  const trigger = levelsInForce(p, w, candle) ? triggerOf(p, w) : acrossChange(p, w);
  if (trigger) return { kind: 'settle', trigger: p.exit_slippage_bps === undefined ? trigger : gapFill(trigger, p.side, w.open) };
  if (!candle) return NONE;
  const moved = ratchetTrail(p, p.side === 'long' ? w.high : w.low, w.to);
  return moved ? { kind: 'ratchet', ...moved } : NONE;
}
