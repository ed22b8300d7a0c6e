/** Isolated-margin liquidation price with a flat maintenance margin. Pure. */
import { direction, type Side } from './side.js';

/** The flat maintenance margin, percent of notional. */
export const MAINTENANCE_MARGIN_PCT = 0.5;

/**
 * Whether the spec's formula would put the liquidation price at or past the entry: the maintenance
 * margin is the whole initial margin or more (mmr / 100 >= 1 / leverage). The relative slack keeps a
 * price a float rounding away from the entry (1 - 1e-17 == 1) on the crossing side of the line.
 */
export function mmrCrossesEntry(leverage: number, mmrPct: number): boolean {
  return mmrPct * leverage >= 100 * (1 - 1e-9);
}

/**
 * The maintenance margin a position is stamped with: the rate itself wherever the spec's formula
 * gives a price on the losing side of the entry (the flat 0.5% up to 200x). Where it would cross
 * (0.5% from 200x, a larger venue or tier rate sooner), half of the initial margin (50 / leverage
 * percent) instead, so the position still opens with its liquidation half the margin away.
 */
export function maintenancePct(leverage: number, flatPct: number = MAINTENANCE_MARGIN_PCT): number {
  return mmrCrossesEntry(leverage, flatPct) ? 50 / leverage : flatPct;
}

/** The spec's formula, entry x (1 - direction x (1/leverage - mmr)): where the loss leaves only the maintenance margin. */
export function liquidationPrice(entry: number, leverage: number, side: Side, mmrPct: number): number {
  return entry * (1 - direction(side) * (1 / leverage - mmrPct / 100));
}
