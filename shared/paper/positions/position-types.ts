/** A position as stored (the API shape plus a few internal fields) and the names of its book. */
import type { AssetClass } from '../../engine/fees.js';
import type { RealismStamp } from '../../engine/realism.js';
import type { Side } from '../../engine/side.js';
import type { PriorLevels } from '../../engine/triggers.js';

/** Who trades: the account and the book its key acts on. */
export interface BookRef {
  accountId: string;
  book: string;
  /**
   * The request (X-Request-Id) or job (a sweep's) a change of the book is made for: the scripts write it into the
   * outbox entry, and the relay into the webhook jobs and their logs, so one trade can be followed to the receiver.
   */
  reqId?: string;
}

/** The scripts' ARGV for a change's request id ('' for none: the entry then carries no 'req'). */
export const reqArg = (ref: BookRef): string => ref.reqId ?? '';

/**
 * A position as stored. Each field is stored once, under the spec's name; the original's names of
 * four of them (entry_price, margin_usd, exit_price, feeOpen) are added by the view
 * (position-view.ts). Records written before held those names too: parsePosition drops them.
 */
/** One fill that opened or added to a position: its quantity, price, taker fee, time, and the version an add made (0: the open). */
export interface PositionLeg {
  qty: number;
  price: number;
  fee: number;
  ts: number;
  v: number;
}

export interface Position {
  id: string;
  /** Version: +1 on every change; the stored JSON is compared as a whole before a change applies. */
  v: number;
  /** The book: 'main' or the book's name. */
  account: string;
  /** Canonical pair, e.g. BTCUSDT. */
  symbol: string;
  asset_class: AssetClass;
  side: Side;
  status: 'open' | 'closed';
  entry: number;
  qty: number;
  margin: number;
  leverage: number;
  notional_usd: number;
  liq_price: number;
  /** Maintenance margin the position was stamped with, percent of notional. */
  mmr_pct: number;
  sl: number | null;
  tp: number | null;
  trail_pct: number | null;
  trail_hwm: number | null;
  /** Time of the newest price folded into trail_hwm (ms); absent until it first moves. Internal. */
  trail_ts?: number;
  /** The mark the minute of trail_ts began with, and its time (shared/engine/trailing.ts); absent until the mark first moves. Internal. */
  trail_prev_hwm?: number;
  trail_prev_ts?: number;
  /**
   * When sl, tp or trail_pct last changed (ms): set at open and by sltp; a candle that started before it is checked across the change
   * (levels_prev). Internal.
   */
  levels_ts?: number;
  /**
   * The sl, tp and trail_pct the minute of levels_ts began with, and when they had been set (shared/engine/triggers.ts); absent until a
   * change. Internal.
   */
  levels_prev?: PriorLevels;
  /** Per-side fee rate stamped at open, percent. */
  fee_rate_pct: number;
  fee_venue: string | null;
  fee_open_usd: number;
  /** Round trip: at open the estimate at the entry price; on a closed position what was charged. */
  fee_round_trip_usd: number;
  opened_ts: number;
  client_order_id: string | null;
  source: 'api';
  // what the book's simulation profile filled it with (shared/engine/realism.ts), kept for life; absent on older records
  /** The realism switches of its fill, under the names /realism uses (the arena counts closes by them). */
  realism?: RealismStamp;
  /** Paid over the quoted price at entry, bps and USD over the quantity (0 without slippage or impact). */
  slippage_bps?: number;
  slippage_usd?: number;
  /** The quoted price the entry met, when slippage moved the fill off it. */
  quoted_price?: number;
  /** The tier of the margin ladder its mmr_pct came from (margin_tiers on). */
  mmr_tier?: number;
  /** Its exits pay this spread, bps, and its stops gap (the profile's exit_slippage at open); absent: exits at the price. */
  exit_slippage_bps?: number;
  /** What its funding is multiplied by, when not 1 (0: funding off). */
  funding_mult?: number;
  /** A partial fill: the share of the requested margin that filled, percent, and the margin requested. */
  fill_pct?: number;
  requested_margin_usd?: number;
  /** replay on a replay journal's rows (shared/paper/replay): never counted on boards, reports or the equity curve; absent otherwise. */
  src?: 'replay';
  /**
   * The legs it was opened with, once added to (the engine's increase), oldest first: the open, then each add. A partial
   * close copies them unscaled to both parts; readers scale them to the part's qty and fee_open_usd. Internal.
   */
  legs?: PositionLeg[];
  /** Funding owed from before funding_from_ts (carried over a partial close), USD. Internal. */
  funding_carry_usd: number;
  /** Funding times after this accrue on the current quantity. Internal. */
  funding_from_ts: number;
  // closed positions (and closed parts) only
  exit?: number;
  closed_ts?: number;
  pnl_usd?: number;
  roe_pct?: number;
  fees_usd?: number;
  funding_usd?: number;
  close_reason?: string;
  liquidated?: boolean;
  /** On a closed part: the share of the position that was closed, percent, and the position it came from. */
  partial_pct?: number;
  parent_id?: string;
}

/** Positions whose JSON is kept as read, so a change can be applied only if it is still that. */
export interface StoredPosition {
  raw: string;
  position: Position;
}

/** The original's names, which records written before this version also stored. */
const LEGACY_ALIASES = ['entry_price', 'margin_usd', 'exit_price', 'feeOpen'] as const;

/** A stored position; one in the older shape (holding each alias beside its field) loses the aliases. */
export function parsePosition(raw: string): StoredPosition {
  const position = JSON.parse(raw) as Position & Partial<Record<(typeof LEGACY_ALIASES)[number], number>>;
  // every older record holds entry_price, so newer ones skip the deletes (they would slow the object down)
  if (position.entry_price !== undefined) for (const alias of LEGACY_ALIASES) delete position[alias];
  return { raw, position };
}

/** The member of a position in the trigger indexes. */
export function triggerMember(ref: BookRef, positionId: string): string {
  return `${ref.accountId}|${ref.book}|${positionId}`;
}

/** The book and position of a trigger member; null when it is not one (split from the right: book names and ids hold no '|'). */
export function parseTriggerMember(member: string): { ref: BookRef; id: string } | null {
  const last = member.lastIndexOf('|');
  const middle = member.lastIndexOf('|', last - 1);
  if (middle <= 0 || last === member.length - 1) return null;
  return { ref: { accountId: member.slice(0, middle), book: member.slice(middle + 1, last) }, id: member.slice(last + 1) };
}
