/** Isolated-margin liquidation price with a flat maintenance margin. Pure. */
import { direction, type Side } from './side.js';

/** The flat maintenance margin, percent of notional. */
export const MAINTENANCE_MARGIN_PCT = 0.5;

/**
 * The maintenance margin a position is stamped with: the flat 0.5% of notional, but never more than
 * half of the initial margin (50 / leverage percent). Without that bound a position above 200x
 * would open with its liquidation price past its entry; with it the liquidation price always lies
 * on the losing side, at least half the margin away. Up to 100x the flat 0.5% applies unchanged.
 */
export function maintenancePct(leverage: number, flatPct: number = MAINTENANCE_MARGIN_PCT): number {
  return Math.min(flatPct, 50 / leverage);
}

/** entry x (1 - direction x (1/leverage - mmr)): where the loss leaves only the maintenance margin. */
export function liquidationPrice(entry: number, leverage: number, side: Side, mmrPct: number): number {
  return entry * (1 - direction(side) * (1 / leverage - mmrPct / 100));
}
