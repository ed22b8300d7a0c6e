/** A resting order (a limit or stop entry) as stored and shown, its id, and the members of its index entries. */
import type { RealismStamp } from '../../engine/realism.js';
import type { AssetClass } from '../../engine/fees.js';
import type { OrderReach, OrderType } from '../../engine/order-rules.js';
import type { Side } from '../../engine/side.js';
import type { BookRef } from '../positions/position-types.js';
import { baseOf } from '../../market/canonical-symbol.js';
import { keys } from '../../redis/keys.js';
import { timedId } from '../timed-ids.js';

/** Done orders a book keeps whole (for /orders recent); older ones leave a tombstone (their status). */
export const ORDERS_DONE_KEPT = 100;

/** How long a done order's tombstone answers already_done: as long as its client could refer to it (an order rests 30 days at most). */
export const ORDER_TOMBSTONE_MS = 30 * 86_400_000;

/** Tombstones a book keeps at most (the oldest go first): bounds its memory whatever the client does. */
export const ORDER_TOMBSTONES_KEPT = 10_000;

/** The ARGV of a script that drops done orders (how many it keeps, then how long and how many tombstones), in that order. */
export const DONE_ORDER_RETENTION = [ORDERS_DONE_KEPT, ORDER_TOMBSTONE_MS, ORDER_TOMBSTONES_KEPT] as const;

/** KEYS of the tombstones of a book's done orders, in the order the scripts take them. */
export const tombstoneKeys = (ref: BookRef): string[] => [
  keys.bookOrdersGone(ref.accountId, ref.book),
  keys.bookOrdersGoneStatus(ref.accountId, ref.book),
];

/**
 * open: rests, waiting for the market (the original's word for it); filled: a candle reached the
 * level and the position opened (position_id); cancelled: by cancel_order or a book reset (note says
 * which); expired: 30 days without a fill; rejected: the market reached the level but the book held
 * its cap of open positions, or a position on the other side of the symbol (one-way mode), so no
 * position opened (note says why). Only open changes; the others are final.
 */
export type OrderStatus = 'open' | 'filled' | 'cancelled' | 'expired' | 'rejected';

/** What orders placed before resting orders read `open` were stored with; read back as open. */
const LEGACY_OPEN = 'resting';

/**
 * An order as stored and as clients see it. Numbers carry at most 12 significant digits, so the
 * book reset script (which edits the JSON with cjson, 14 digits) writes them back unchanged. The
 * stored JSON is compared as a whole before any change applies.
 */
export interface Order {
  order_id: string;
  type: OrderType;
  /** The book: 'main' or the book's name. */
  account: string;
  symbol: string;
  asset_class: AssetClass;
  side: Side;
  /** The level: the position opens here. */
  limit_price: number;
  margin_usd: number;
  leverage: number;
  sl: number | null;
  tp: number | null;
  trail_pct: number | null;
  /** The fee venue the position will be stamped with (resolved at placement), or null for the class rate. */
  fee_venue: string | null;
  /** Maintenance margin override, percent; null for the default. */
  mmr_pct: number | null;
  client_order_id: string | null;
  status: OrderStatus;
  placed_ts: number;
  expires_ts: number;
  /** Candles that open before this minute never fill it: placement and every modify move it to the next minute. */
  fills_from_ts: number;
  modified_ts?: number;
  /** When it left resting. */
  done_ts?: number;
  /** Filled: the position it opened and the minute the market reached the level. */
  position_id?: string;
  filled_ts?: number;
  /** Why it was cancelled or rejected. */
  note?: string;
  /**
   * The realism its position will be stamped with, from the book's profile at placement (slippage false: a resting entry fills at its
   * level); absent on orders placed before it.
   */
  realism?: RealismStamp;
  /** The book's cost model at placement, when not the tables: taker fee per side, bps, and the funding multiplier. */
  taker_bps?: number;
  funding_mult?: number;
}

/** lo + the time in base 36 + 8 random base-36 characters (the original's order ids start with lo). */
export const newOrderId = (now: number): string => timedId('lo', now);

/** An order with its JSON as read, so a change applies only if it is still that. */
export interface StoredOrder {
  raw: string;
  order: Order;
}

export function parseOrder(raw: string): StoredOrder {
  const order = JSON.parse(raw) as Omit<Order, 'status'> & { status: OrderStatus | typeof LEGACY_OPEN };
  return { raw, order: { ...order, status: order.status === LEGACY_OPEN ? 'open' : order.status } };
}

/** An order as clients see it: the spec's ticker (BTC) for the canonical symbol it is stored and indexed under. */
export function orderView(order: Order): Order {
  return { ...order, symbol: baseOf(order.symbol) };
}

/** The member of an order in the per-symbol order index. */
export function orderMember(ref: BookRef, orderId: string): string {
  return `${ref.accountId}|${ref.book}|${orderId}`;
}

/** The member of an order in the expiry index: it also names the order index entry to drop. */
export function expiryMember(ref: BookRef, orderId: string, symbol: string, reach: OrderReach): string {
  return `${orderMember(ref, orderId)}|${symbol}|${reach}`;
}

export interface OrderHint {
  ref: BookRef;
  orderId: string;
}

/** An order index member read back; null when it is not one of ours. */
export function parseOrderMember(member: string): OrderHint | null {
  const [accountId, book, orderId] = member.split('|');
  return accountId && book && orderId ? { ref: { accountId, book }, orderId } : null;
}

/** An expiry index member read back; null when it is not one of ours. */
export function parseExpiryMember(member: string): (OrderHint & { symbol: string; reach: OrderReach }) | null {
  const [accountId, book, orderId, symbol, reach] = member.split('|');
  if (!accountId || !book || !orderId || !symbol || (reach !== 'down' && reach !== 'up')) return null;
  return { ref: { accountId, book }, orderId, symbol, reach };
}
