/**
 * Settlement: realized P&L = qty x (exit - entry) x direction - qty x (entry + exit) x rate - funding,
 * floored at minus the margin; the round-trip fee never more than 20% of the margin (the spec's
 * bound: the open's lowered rate keeps it at the entry price, this keeps it with the exit leg).
 * Partial closes are computed so that the parts add up to the cent to what one close at the same
 * price would settle. Pure.
 */
import { MAX_ROUND_TRIP_SHARE_OF_MARGIN } from './fees.js';
import { direction, toCents, trimNumber, type Side } from './side.js';

/** What settles: a whole position, or the part of it that stays open. */
export interface SettleInput {
  side: Side;
  qty: number;
  entry: number;
  exit: number;
  /** Per-side fee rate in percent, as stamped at open. */
  ratePct: number;
  /** Funding owed so far (positive = paid by the position). */
  fundingUsd: number;
  margin: number;
}

export interface Settlement {
  gross: number;
  /** Round-trip fee: qty x (entry + exit) x rate, at most 20% of the margin. */
  fees: number;
  funding: number;
  /** gross - fees - funding, floored at -margin. */
  pnl: number;
  /** True when the floor applied (the loss would have exceeded the margin). */
  floored: boolean;
}

export function grossPnl(side: Side, qty: number, entry: number, exit: number): number {
  return qty * (exit - entry) * direction(side);
}

/** qty x (entry + exit) x rate, bounded by 20% of the margin. */
export function roundTripFee(qty: number, entry: number, exit: number, ratePct: number, margin: number): number {
  return Math.min(qty * (entry + exit) * (ratePct / 100), MAX_ROUND_TRIP_SHARE_OF_MARGIN * margin);
}

export function settle(input: SettleInput): Settlement {
  const gross = grossPnl(input.side, input.qty, input.entry, input.exit);
  const fees = roundTripFee(input.qty, input.entry, input.exit, input.ratePct, input.margin);
  const raw = gross - fees - input.fundingUsd;
  const floored = raw < -input.margin;
  return { gross, fees, funding: input.fundingUsd, pnl: floored ? -input.margin : raw, floored };
}

/** The settled P&L in whole cents. */
export function settleCents(input: SettleInput): number {
  return toCents(settle(input).pnl);
}

/** How a position divides when a share of it is closed. */
export interface Split {
  closed: { qty: number; margin: number; fundingUsd: number };
  remaining: { qty: number; margin: number; fundingUsd: number };
}

/**
 * Splits qty, margin and funding owed: the remaining part is computed first (x (1 - fraction)) and
 * the closed part is the rest, so the two always add up to the whole.
 */
export function splitPosition(position: { qty: number; margin: number }, fundingUsd: number, fraction: number): Split {
  const keep = 1 - fraction;
  const remaining = { qty: position.qty * keep, margin: position.margin * keep, fundingUsd: fundingUsd * keep };
  return {
    remaining,
    closed: {
      qty: position.qty - remaining.qty,
      margin: position.margin - remaining.margin,
      fundingUsd: fundingUsd - remaining.fundingUsd,
    },
  };
}

export interface PartialSettlement {
  split: Split;
  /** Cents realized by the closed part: settle(whole) - settle(remaining), both in cents. */
  closedCents: number;
  /** What the closed part's own numbers are (for display); its pnl is closedCents. */
  closed: Settlement;
}

/**
 * Settles `fraction` (0 < fraction < 1) of a position at `exit`. The closed part realizes the
 * difference between settling the whole position now and settling what remains now; closing the
 * rest later at the same price then adds exactly the second term, so the parts sum to one close.
 */
export function settlePartial(whole: SettleInput, fraction: number): PartialSettlement {
  const split = splitPosition(whole, whole.fundingUsd, fraction);
  const remainingInput: SettleInput = {
    ...whole,
    qty: split.remaining.qty,
    margin: split.remaining.margin,
    fundingUsd: split.remaining.fundingUsd,
  };
  const closedCents = settleCents(whole) - settleCents(remainingInput);
  const closed = settle({ ...whole, qty: split.closed.qty, margin: split.closed.margin, fundingUsd: split.closed.fundingUsd });
  return { split, closedCents, closed };
}

/** The smallest margin a position holds: the open's minimum (margin_usd 1 to 100000), which a partial close's remainder keeps. */
export const MIN_MARGIN_USD = 1;

/**
 * The margin a close of `pct` percent leaves open, as splitPosition computes it, to 12 significant
 * digits (so 90% of 10 leaves 1, not 0.9999999999999998); 0 for a whole close.
 */
export function marginLeft(margin: number, pct: number): number {
  return pct >= 100 ? 0 : trimNumber(margin * (1 - pct / 100));
}

/** Whether a close of `pct` percent leaves nothing or at least the minimum margin open. */
export function leavesValidRemainder(margin: number, pct: number): boolean {
  const left = marginLeft(margin, pct);
  return left === 0 || left >= MIN_MARGIN_USD;
}

/**
 * The largest partial close, in hundredths of a percent, that leaves at least the minimum margin
 * open; null when none of 1-99.99% does (only a whole close is possible).
 */
export function largestPartialPct(margin: number): number | null {
  for (let hundredths = Math.min(9999, Math.floor((1 - MIN_MARGIN_USD / margin) * 10_000)); hundredths >= 100; hundredths--) {
    if (leavesValidRemainder(margin, hundredths / 100)) return hundredths / 100;
  }
  return null;
}
