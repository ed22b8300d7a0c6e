/**
 * What a Binance one-way MARKET order does to a book, decided from the symbol's open positions. Pure.
 *
 * One-way mode nets orders into one position per symbol: with none, an order opens one; in its direction, the order
 * adds to it (the engine's increase: one script moves the average entry, margin and liquidation price); against it,
 * the order shrinks or closes it; reduceOnly and closePosition only ever shrink. An order larger than the opposite
 * position flips it through zero: it closes all of it and opens the remainder on the other side.
 */
import type { Side } from '../engine/side.js';

export interface OrderIntent {
  side: 'BUY' | 'SELL';
  /** Base-asset quantity; absent with closePosition. */
  quantity?: number;
  reduceOnly: boolean;
  closePosition: boolean;
}

export interface HeldPosition {
  id: string;
  side: Side;
  qty: number;
}

export type OrderPlan =
  | { kind: 'open'; side: Side; quantity: number }
  | { kind: 'increase'; id: string; quantity: number }
  | { kind: 'close'; id: string; pct: number }
  /** Close all of position `id`, then open `quantity` (the remainder) on `side`. */
  | { kind: 'flip'; id: string; side: Side; quantity: number }
  | { kind: 'refuse'; reason: RefusalReason };

export type RefusalReason =
  'reduce_only_rejected' | 'add_unsupported' | 'several_positions' | 'quantity_required' | 'partial_level' | 'resting_reduce';
export type Refusal = { kind: 'refuse'; reason: RefusalReason };

/** A quantity within this share of the position closes all of it (the client rounded it to the lot step). */
const WHOLE_TOLERANCE = 1e-6;

export function planOrder(intent: OrderIntent, held: readonly HeldPosition[]): OrderPlan {
  const side: Side = intent.side === 'BUY' ? 'long' : 'short';
  const reducing = intent.reduceOnly || intent.closePosition;
  if (held.length > 1) return { kind: 'refuse', reason: 'several_positions' };
  const position = held[0];
  if (!intent.closePosition && intent.quantity === undefined) return { kind: 'refuse', reason: 'quantity_required' };
  if (!position)
    return reducing ? { kind: 'refuse', reason: 'reduce_only_rejected' } : { kind: 'open', side, quantity: intent.quantity ?? 0 };
  if (position.side === side)
    return reducing
      ? { kind: 'refuse', reason: 'reduce_only_rejected' }
      : { kind: 'increase', id: position.id, quantity: intent.quantity ?? 0 };
  const quantity = intent.closePosition ? position.qty : (intent.quantity ?? 0);
  if (quantity >= position.qty * (1 - WHOLE_TOLERANCE)) {
    // beyond the position: reduceOnly stops at zero, a plain order opens the remainder on the other side
    if (!reducing && quantity > position.qty * (1 + WHOLE_TOLERANCE))
      return { kind: 'flip', id: position.id, side, quantity: quantity - position.qty };
    return { kind: 'close', id: position.id, pct: 100 };
  }
  return { kind: 'close', id: position.id, pct: (quantity / position.qty) * 100 };
}

/**
 * A resting entry (LIMIT, or a STOP_MARKET that opens): the engine's resting entries open a position when they fill,
 * so one is taken only where a MARKET order would open (no position in the symbol); one that would add to a position
 * is refused (a resting fill opens, it does not increase), as is one that would shrink it (the engine has no resting
 * partial close: a position's stop and target are its resting exits).
 */
export function planEntry(intent: OrderIntent, held: readonly HeldPosition[]): { kind: 'open'; side: Side; quantity: number } | Refusal {
  const plan = planOrder(intent, held);
  if (plan.kind === 'close' || plan.kind === 'flip') return { kind: 'refuse', reason: 'resting_reduce' };
  if (plan.kind === 'increase') return { kind: 'refuse', reason: 'add_unsupported' };
  return plan;
}

/**
 * A reduce-only STOP_MARKET, TAKE_PROFIT_MARKET or TRAILING_STOP_MARKET: a level of the symbol's position, which closes
 * all of it when it triggers; one for a part of the position is refused.
 */
export function planLevel(intent: OrderIntent, held: readonly HeldPosition[]): { kind: 'level'; id: string } | Refusal {
  const plan = planOrder({ ...intent, reduceOnly: true }, held);
  if (plan.kind === 'refuse') return plan;
  if (plan.kind === 'open' || plan.kind === 'increase' || plan.kind === 'flip') return { kind: 'refuse', reason: 'reduce_only_rejected' };
  return plan.pct < 100 ? { kind: 'refuse', reason: 'partial_level' } : { kind: 'level', id: plan.id };
}
