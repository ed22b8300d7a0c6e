/**
 * Adding to an open position (Binance's one-way netting of a same-direction order): one position with the summed
 * quantity at the quantity-weighted entry, the added leg's margin at the leverage it was sent with, its taker fee at the
 * position's stamped rate (settlement charges that rate on both legs), the liquidation price of the combined position
 * from the stamped maintenance rate, and the funding owed so far carried, so funding accrues on quantity x time. Pure.
 */
import { liquidationPrice, mmrCrossesEntry } from './liquidation.js';
import { direction, roundUsd, trimNumber, type Side } from './side.js';

/** What an increase reads of the position. */
export interface IncreaseBase {
  side: Side;
  qty: number;
  entry: number;
  margin: number;
  mmr_pct: number;
  fee_rate_pct: number;
  fee_open_usd: number;
  fee_round_trip_usd: number;
}

export interface IncreaseInput {
  /** Base-asset quantity added. */
  addQty: number;
  /** The added leg's fill price (priced like an open's fill). */
  fillPrice: number;
  /** The leverage the added leg is margined at (the symbol's setting). */
  leverage: number;
  now: number;
  /** Funding the position owes at `now` (its carry plus the funding times since funding_from_ts). */
  fundingOwed: number;
}

/** The fields of the position an increase sets. */
export interface IncreasedFields {
  qty: number;
  entry: number;
  margin: number;
  leverage: number;
  notional_usd: number;
  liq_price: number;
  fee_open_usd: number;
  fee_round_trip_usd: number;
  funding_carry_usd: number;
  funding_from_ts: number;
}

export type IncreaseOutcome =
  | { ok: true; fields: IncreasedFields; addedMargin: number; addedFee: number }
  /** The combined position's liquidation price is at or past the fill (it would be liquidated at once). */
  | { ok: false; reason: 'liquidates'; liqPrice: number };

export function increase(p: IncreaseBase, input: IncreaseInput): IncreaseOutcome {
  const qty = p.qty + input.addQty;
  const addedNotional = input.addQty * input.fillPrice;
  // q1 x e1 + q2 x e2: the notional both legs were opened at, so the weighted entry keeps every leg's cost
  const notional = p.qty * p.entry + addedNotional;
  const entry = trimNumber(notional / qty);
  const addedMargin = addedNotional / input.leverage;
  const margin = p.margin + addedMargin;
  const leverage = trimNumber(notional / margin);
  const liq = trimNumber(liquidationPrice(entry, leverage, p.side, p.mmr_pct));
  if (mmrCrossesEntry(leverage, p.mmr_pct) || (liq - input.fillPrice) * direction(p.side) >= 0)
    return { ok: false, reason: 'liquidates', liqPrice: liq };
  const addedFee = (addedNotional * p.fee_rate_pct) / 100;
  return {
    ok: true,
    addedMargin,
    addedFee,
    fields: {
      qty,
      entry,
      margin: trimNumber(margin),
      leverage,
      notional_usd: roundUsd(notional),
      liq_price: liq,
      fee_open_usd: trimNumber(p.fee_open_usd + addedFee),
      fee_round_trip_usd: trimNumber(p.fee_round_trip_usd + 2 * addedFee),
      funding_carry_usd: input.fundingOwed,
      funding_from_ts: input.now,
    },
  };
}
