/**
 * A close's record, as arithmetic: the fields a whole close sets on a position, the closed part and the remainder of a
 * partial close, and the facts the read models take from the closed record. The positions' store writes what this
 * computes (shared/paper/positions/close-service.ts). Pure.
 */
import type { CloseFacts } from './analytics/close-facts.js';
import { settle, settlePartial, type SettleInput } from './settlement.js';
import { roundUsd, trimNumber, type Side } from './side.js';
import { CLOSE_REASONS, decide, liveWindow, type SweepState, type Trigger } from './triggers.js';

/** What a close reads of a position (a stored position has these and more; the records keep the rest as it is). */
export interface ClosingPosition extends SweepState {
  id: string;
  v: number;
  symbol: string;
  side: Side;
  entry: number;
  qty: number;
  margin: number;
  leverage: number;
  opened_ts: number;
  fee_rate_pct: number;
  fee_open_usd: number;
  fee_round_trip_usd: number;
}

/** The fields a whole close sets, in the order the closed record gets them. */
export const WHOLE_CLOSE_FIELDS = [
  'status',
  'exit',
  'closed_ts',
  'close_reason',
  'liquidated',
  'v',
  'pnl_usd',
  'roe_pct',
  'fees_usd',
  'fee_round_trip_usd',
  'funding_usd',
] as const;

export interface WholeCloseFields {
  status: 'closed';
  exit: number;
  closed_ts: number;
  close_reason: string;
  liquidated: boolean;
  v: number;
  pnl_usd: number;
  roe_pct: number;
  fees_usd: number;
  fee_round_trip_usd: number;
  funding_usd: number;
}

/** A settled close: the closed record (the closed part of a partial close), what stays open, the realized P&L in cents. */
export interface SettledClose<P> {
  closed: P;
  remaining: P | null;
  cents: number;
}

/** The fields a whole close at `exit` sets, and its realized P&L in cents. */
export function wholeCloseFields(
  p: ClosingPosition,
  exit: number,
  fundingUsd: number,
  now: number,
  reason: string,
  liquidated: boolean,
): { fields: WholeCloseFields; cents: number } {
  const s = settle({ side: p.side, qty: p.qty, entry: p.entry, exit, ratePct: p.fee_rate_pct, fundingUsd, margin: p.margin });
  const cents = Math.round(s.pnl * 100);
  const fields: WholeCloseFields = {
    status: 'closed',
    exit,
    closed_ts: now,
    close_reason: reason,
    liquidated,
    v: p.v + 1,
    pnl_usd: cents / 100,
    roe_pct: trimNumber((cents / 100 / p.margin) * 100),
    fees_usd: trimNumber(s.fees),
    fee_round_trip_usd: trimNumber(s.fees),
    funding_usd: roundUsd(s.funding),
  };
  return { fields, cents };
}

/** The read models' facts of a closed record: the position (or closed part) with the fields its close set. */
export function closeFacts(
  p: Pick<ClosingPosition, 'symbol' | 'side' | 'leverage' | 'margin' | 'opened_ts'>,
  closed: Pick<WholeCloseFields, 'closed_ts' | 'roe_pct' | 'fees_usd' | 'funding_usd' | 'liquidated'>,
  cents: number,
): CloseFacts {
  return {
    symbol: p.symbol,
    side: p.side,
    leverage: p.leverage,
    margin: p.margin,
    opened_ts: p.opened_ts,
    closed_ts: closed.closed_ts,
    cents,
    roe_pct: closed.roe_pct,
    fees_usd: closed.fees_usd,
    funding_usd: closed.funding_usd,
    liquidated: closed.liquidated,
  };
}

function wholeSettled<P extends ClosingPosition>(
  p: P,
  exit: number,
  fundingUsd: number,
  now: number,
  reason: string,
  liquidated: boolean,
): SettledClose<P> {
  const { fields, cents } = wholeCloseFields(p, exit, fundingUsd, now, reason, liquidated);
  // Object.assign, not spreads: the same fields in the same order, several times faster on a parsed position
  return { closed: Object.assign({}, p, fields), remaining: null, cents };
}

/** The whole position settled by one of its own triggers, at its level, as the sweep settles it (a liquidation marked as one). */
export function triggeredClose<P extends ClosingPosition>(p: P, trigger: Trigger, fundingUsd: number, now: number): SettledClose<P> {
  return wholeSettled(p, trigger.price, fundingUsd, now, trigger.reason, trigger.reason === CLOSE_REASONS.liquidation);
}

/** The trigger of the position the live price has crossed, if any (the live sweep's own decision). */
export function crossedTrigger(p: SweepState, live: { price: number; ts: number }): Trigger | null {
  const decision = decide(p, liveWindow(live.price, live.ts), false);
  return decision.kind === 'settle' ? decision.trigger : null;
}

/** The closed record and, for a partial close, the remaining position. */
export function computeClose<P extends ClosingPosition>(
  p: P,
  exit: number,
  pct: number,
  fundingUsd: number,
  now: number,
  reason: string,
): SettledClose<P> {
  if (pct >= 100) return wholeSettled(p, exit, fundingUsd, now, reason, false);
  const whole: SettleInput = { side: p.side, qty: p.qty, entry: p.entry, exit, ratePct: p.fee_rate_pct, fundingUsd, margin: p.margin };
  const closedFields = { status: 'closed' as const, exit, closed_ts: now, close_reason: reason, liquidated: false };
  const fraction = pct / 100;
  const part = settlePartial(whole, fraction);
  const { closed: c, remaining: r } = part.split;
  const scale = (value: number, share: number) => trimNumber(value * share);
  const closed: P = {
    ...p,
    ...closedFields,
    id: `${p.id}-${p.v}`,
    parent_id: p.id,
    partial_pct: pct,
    v: 1,
    qty: c.qty,
    margin: c.margin,
    notional_usd: roundUsd(c.margin * p.leverage),
    fee_open_usd: scale(p.fee_open_usd, fraction),
    pnl_usd: part.closedCents / 100,
    roe_pct: trimNumber((part.closedCents / 100 / c.margin) * 100),
    fees_usd: trimNumber(part.closed.fees),
    fee_round_trip_usd: trimNumber(part.closed.fees),
    funding_usd: roundUsd(c.fundingUsd),
  };
  const remaining: P = {
    ...p,
    v: p.v + 1,
    qty: r.qty,
    margin: r.margin,
    notional_usd: roundUsd(r.margin * p.leverage),
    fee_open_usd: scale(p.fee_open_usd, 1 - fraction),
    fee_round_trip_usd: scale(p.fee_round_trip_usd, 1 - fraction),
    funding_carry_usd: r.fundingUsd,
    funding_from_ts: now,
  };
  return { closed, remaining, cents: part.closedCents };
}
