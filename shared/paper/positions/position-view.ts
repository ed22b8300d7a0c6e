/**
 * What clients see of a position: the stored fields minus the internal ones, plus for an open
 * position its mark price and what would settle now. Pure.
 */
import { settle } from '../../engine/settlement.js';
import { roundUsd, trimNumber } from '../../engine/side.js';
import type { Position } from './position-types.js';

export type PositionView = Omit<Position, 'v' | 'funding_carry_usd' | 'funding_from_ts' | 'trail_ts' | 'levels_ts'> & {
  mark_price?: number | null;
  mark_stale?: boolean;
  unrealized_pnl_usd?: number | null;
};

function publicFields(p: Position): PositionView {
  const { v: _v, funding_carry_usd: _carry, funding_from_ts: _from, trail_ts: _trailTs, levels_ts: _levelsTs, ...rest } = p;
  return rest;
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
    return { ...view, mark_price: null, unrealized_pnl_usd: null, fees_usd: roundUsd(p.fee_round_trip_usd) };
  }
  const s = settle({ side: p.side, qty: p.qty, entry: p.entry, exit: mark.price, ratePct: p.fee_rate_pct, fundingUsd, margin: p.margin });
  return {
    ...view,
    mark_price: mark.price,
    ...(mark.stale ? { mark_stale: true } : {}),
    unrealized_pnl_usd: roundUsd(s.pnl),
    fees_usd: trimNumber(s.fees),
    fee_round_trip_usd: trimNumber(s.fees),
  };
}

export function closedView(p: Position): PositionView {
  return publicFields(p);
}

/**
 * The structural state the positions ETag covers: ids, status, quantity, stop, target and exit (not
 * the mark); a trailing stop's high-water mark too, since it moves the stop.
 */
export function etagMaterial(rows: readonly Pick<Position, 'id' | 'status' | 'qty' | 'sl' | 'tp' | 'exit' | 'trail_hwm'>[]): string {
  return rows.map((r) => `${r.id}|${r.status}|${r.qty}|${r.sl ?? ''}|${r.tp ?? ''}|${r.exit ?? ''}${r.trail_hwm === null ? '' : `|${r.trail_hwm}`}`).join('\n');
}
