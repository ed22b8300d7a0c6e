/**
 * Resting orders (limit and stop entries): which side of the market a level may sit on, which
 * 1-minute candles fill it, and from which minute on. Pure.
 */
import type { Side } from './side.js';

export type OrderType = 'limit' | 'stop';

/**
 * Which way the market has to move to reach a resting level: 'down' fills when a candle's low is
 * at or below it (a limit long, a stop short), 'up' when its high is at or above it (a limit
 * short, a stop long).
 */
export type OrderReach = 'down' | 'up';

export type PlacementRefusal = 'limit_marketable' | 'stop_wrong_side' | 'limit_price_far';

/**
 * How far from the market, in percent of it, a resting level may sit. The original's docs name
 * limit_price_far but no distance: half the price either way keeps out levels that cannot fill
 * within an order's 30 days (a fat finger, a level of another symbol), and not one a bot means.
 */
export const LEVEL_MAX_DISTANCE_PCT = 50;

export const MINUTE_MS = 60_000;

/** A resting order that has not filled this long after it was placed expires. */
export const ORDER_TTL_MS = 30 * 86_400_000;

export function reachOf(type: OrderType, side: Side): OrderReach {
  return (type === 'limit') === (side === 'long') ? 'down' : 'up';
}

/**
 * A limit rests on the side the market has not reached yet (long below it, short above it), a
 * stop on the other side (long above, short below). A level at the market, or on the wrong side,
 * would fill at once: it is refused rather than filled as a market entry. A level more than
 * LEVEL_MAX_DISTANCE_PCT away from the market is refused too.
 */
export function checkPlacement(type: OrderType, side: Side, level: number, market: number): PlacementRefusal | null {
  const ok = reachOf(type, side) === 'down' ? level < market : level > market;
  if (!ok) return type === 'limit' ? 'limit_marketable' : 'stop_wrong_side';
  return (Math.abs(level - market) / market) * 100 > LEVEL_MAX_DISTANCE_PCT ? 'limit_price_far' : null;
}

export interface CandleRange {
  /** Open time of the minute, ms. */
  minute: number;
  low: number;
  high: number;
}

/** True when the candle's range reached the level in the order's direction. */
export function candleReaches(reach: OrderReach, level: number, candle: Pick<CandleRange, 'low' | 'high'>): boolean {
  return reach === 'down' ? candle.low <= level : candle.high >= level;
}

/**
 * The first minute whose candle may fill an order placed (or modified) at `now`: the next minute
 * start, or `now` itself on a minute boundary. A 1-minute bar cannot tell the part of its minute
 * before the order from the part after, so the minute of placement never fills it (else a level
 * the market touched seconds before placement would fill at a price no longer offered).
 */
export function watermarkAfter(now: number): number {
  return Math.ceil(now / MINUTE_MS) * MINUTE_MS;
}

export interface RestingTerms {
  reach: OrderReach;
  level: number;
  /** The first candle minute that may fill it (see watermarkAfter). */
  watermark: number;
}

/** Whether this closed candle fills the order: at or after its watermark, and its range reached the level. */
export function candleFills(order: RestingTerms, candle: CandleRange): boolean {
  return candle.minute >= order.watermark && candleReaches(order.reach, order.level, candle);
}

export function expiresAt(placedTs: number): number {
  return placedTs + ORDER_TTL_MS;
}
