/** Pricing a market entry: quantity, liquidation price, fees. Pure. */
import { cappedRatePct } from './fees.js';
import { liquidationPrice, maintenancePct } from './liquidation.js';
import { direction, type Side } from './side.js';

export interface OpenInput {
  side: Side;
  /** Fill price. */
  entry: number;
  margin: number;
  leverage: number;
  /** Per-side base rate in percent (class or venue rate), before the high-leverage cap. */
  baseRatePct: number;
  /** Flat maintenance margin in percent (0.5 unless overridden). */
  flatMmrPct?: number;
}

export interface PricedOpen {
  entry: number;
  /** margin x leverage / entry. */
  qty: number;
  notional: number;
  /** The per-side rate stamped on the position (after the high-leverage cap), percent. */
  ratePct: number;
  mmrPct: number;
  liqPrice: number;
  /** Percent from entry to the liquidation price (negative for a long). */
  liqDistancePct: number;
  feeOpen: number;
  /** Both legs at the entry price: 2 x notional x rate. */
  feeRoundTrip: number;
}

export function priceOpen(input: OpenInput): PricedOpen {
  const notional = input.margin * input.leverage;
  const qty = notional / input.entry;
  const ratePct = cappedRatePct(input.baseRatePct, input.leverage);
  const mmrPct = input.flatMmrPct === undefined ? maintenancePct(input.leverage) : maintenancePct(input.leverage, input.flatMmrPct);
  const liqPrice = liquidationPrice(input.entry, input.leverage, input.side, mmrPct);
  const feeOpen = (notional * ratePct) / 100;
  return {
    entry: input.entry,
    qty,
    notional,
    ratePct,
    mmrPct,
    liqPrice,
    liqDistancePct: ((liqPrice - input.entry) / input.entry) * 100,
    feeOpen,
    feeRoundTrip: 2 * feeOpen,
  };
}

export type LevelRefusal = 'sl_wrong_side' | 'tp_wrong_side';

/**
 * A stop must sit on the losing side of the reference price and a target on the winning side
 * (long: sl below, tp above; short: the reverse). null = both fine (an absent level is fine).
 */
export function checkLevels(
  side: Side,
  reference: number,
  sl: number | null | undefined,
  tp: number | null | undefined,
): LevelRefusal | null {
  const dir = direction(side);
  if (sl !== null && sl !== undefined && (sl - reference) * dir >= 0) return 'sl_wrong_side';
  if (tp !== null && tp !== undefined && (tp - reference) * dir <= 0) return 'tp_wrong_side';
  return null;
}
