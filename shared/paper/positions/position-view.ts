/**
 * What clients see of a position: the stored fields minus the internal ones, plus for an open
 * position its mark price and what would settle now. Pure.
 *
 * The original's names of four fields are added beside the spec's: entry_price (entry), margin_usd
 * (margin), exit_price (exit), feeOpen (fee_open_usd); the store holds each once.
 *
 * Two fields are shown as the original service shows them, not as stored: `sl` is the stop in
 * force, the tighter of the client's stop-loss and the trailing stop's current level (set at open
 * from trail_pct and the entry, then ratcheted), and `trail_pct` is absent when the position does
 * not trail. The stored sl stays the client's own level: the sweep, the trigger index and sltp's
 * side checks use it and the trailing stop apart (engine/triggers.ts, engine/trailing.ts).
 */
import { settle } from '../../engine/settlement.js';
import { roundUsd, trimNumber } from '../../engine/side.js';
import { effectiveStop } from '../../engine/trailing.js';
import { baseOf } from '../../market/canonical-symbol.js';
import type { Position } from './position-types.js';

export type PositionView = Omit<Position, InternalField | 'trail_pct'> & {
  entry_price: number;
  margin_usd: number;
  feeOpen: number;
  /** Closed only, beside exit. */
  exit_price?: number;
  /** Absent when the position has no trailing stop. */
  trail_pct?: number;
  mark_price?: number | null;
  mark_stale?: boolean;
  unrealized_pnl_usd?: number | null;
};

/** Fields only a closed position (or a closed part) has, in the order its view lists them. */
const CLOSED_FIELDS = [
  'exit',
  'closed_ts',
  'close_reason',
  'liquidated',
  'pnl_usd',
  'roe_pct',
  'fees_usd',
  'funding_usd',
  'partial_pct',
  'parent_id',
] as const;
/** What the simulation profile stamped at open (position-types.ts), copied when present: older records have none. */
const FILL_FIELDS = [
  'realism',
  'slippage_bps',
  'slippage_usd',
  'quoted_price',
  'mmr_tier',
  'exit_slippage_bps',
  'funding_mult',
  'fill_pct',
  'requested_margin_usd',
] as const;
type InternalField =
  'v' | 'funding_carry_usd' | 'funding_from_ts' | 'trail_ts' | 'trail_prev_hwm' | 'trail_prev_ts' | 'levels_ts' | 'levels_prev' | 'legs';
/**
 * What publicFields writes out in its literal: a field added to Position fails to compile until it is listed there, closed-only or
 * internal.
 */
type OpenFields = Required<
  Omit<
    PositionView,
    | 'trail_pct'
    | 'src'
    | 'exit_price'
    | 'mark_price'
    | 'mark_stale'
    | 'unrealized_pnl_usd'
    | (typeof CLOSED_FIELDS)[number]
    | (typeof FILL_FIELDS)[number]
  >
>;

/**
 * The stored fields minus the internal ones: one literal, then the closed fields a record has,
 * always in the same order. Copying the position minus some keys (rest destructuring, then a
 * spread) left garbage in the old generation, freed only by a full collection: under load, a
 * frequent mark-compact pause (bench/README.md, design figures).
 */
function publicFields(p: Position): PositionView {
  const view: PositionView = {
    id: p.id,
    account: p.account,
    // the spec's ticker (BTC, XAU); storage and the indexes keep the canonical BTCUSDT
    symbol: baseOf(p.symbol),
    asset_class: p.asset_class,
    side: p.side,
    status: p.status,
    entry: p.entry,
    entry_price: p.entry,
    qty: p.qty,
    margin: p.margin,
    margin_usd: p.margin,
    leverage: p.leverage,
    notional_usd: p.notional_usd,
    liq_price: p.liq_price,
    mmr_pct: p.mmr_pct,
    sl: effectiveStop(p),
    tp: p.tp,
    trail_hwm: p.trail_hwm,
    fee_rate_pct: p.fee_rate_pct,
    fee_venue: p.fee_venue,
    feeOpen: p.fee_open_usd,
    fee_open_usd: p.fee_open_usd,
    fee_round_trip_usd: p.fee_round_trip_usd,
    opened_ts: p.opened_ts,
    client_order_id: p.client_order_id,
    source: p.source,
  } satisfies OpenFields;
  if (p.trail_pct !== null) view.trail_pct = p.trail_pct;
  for (const field of FILL_FIELDS) if (p[field] !== undefined) (view as Record<string, unknown>)[field] = p[field];
  if (p.src !== undefined) view.src = p.src;
  for (const field of CLOSED_FIELDS) {
    if (p[field] === undefined) continue;
    (view as Record<string, unknown>)[field] = p[field];
    if (field === 'exit') view.exit_price = p.exit;
  }
  return view;
}

/**
 * An open position at a mark: unrealized = gross - funding - the full round trip at the mark,
 * floored at -margin, i.e. exactly what a close at the mark would settle. fees_usd and
 * fee_round_trip_usd are that round trip; funding_usd the funding owed so far.
 */
export function openView(p: Position, mark: { price: number; stale: boolean } | undefined, fundingUsd: number): PositionView {
  const view = publicFields(p);
  view.funding_usd = roundUsd(fundingUsd);
  if (!mark) {
    view.mark_price = null;
    view.unrealized_pnl_usd = null;
    view.fees_usd = roundUsd(p.fee_round_trip_usd);
    return view;
  }
  const s = settle({ side: p.side, qty: p.qty, entry: p.entry, exit: mark.price, ratePct: p.fee_rate_pct, fundingUsd, margin: p.margin });
  view.mark_price = mark.price;
  if (mark.stale) view.mark_stale = true;
  view.unrealized_pnl_usd = roundUsd(s.pnl);
  view.fees_usd = trimNumber(s.fees);
  view.fee_round_trip_usd = trimNumber(s.fees);
  return view;
}

export function closedView(p: Position): PositionView {
  return publicFields(p);
}

/**
 * The structural state the positions ETag covers: ids, status, quantity, stop, target and exit (not
 * the mark); a trailing stop's high-water mark too, since it moves the stop.
 */
export function etagMaterial(rows: readonly Pick<Position, 'id' | 'status' | 'qty' | 'sl' | 'tp' | 'exit' | 'trail_hwm'>[]): string {
  return rows
    .map((r) => `${r.id}|${r.status}|${r.qty}|${r.sl ?? ''}|${r.tp ?? ''}|${r.exit ?? ''}${r.trail_hwm === null ? '' : `|${r.trail_hwm}`}`)
    .join('\n');
}
