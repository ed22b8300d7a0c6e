/**
 * The public trading calculators: pure functions of their inputs. Fees and funding are not
 * included; the liquidation estimate is isolated-margin and educational, and uses the engine's
 * formula, so it answers what a paper position opened at that leverage would be stamped with.
 */
import { liquidationPrice, MAINTENANCE_MARGIN_PCT, maintenancePct, mmrCrossesEntry } from '../engine/liquidation.js';
import { direction, type Side } from '../engine/side.js';

export interface LiquidationInput {
  entry: number;
  leverage: number;
  side: Side;
  /** Maintenance margin rate in percent; omitted: the flat 0.5% under the engine's rule. */
  mmr?: number;
}

export interface LiquidationResult extends LiquidationInput {
  /** The rate applied. */
  mmr: number;
  liquidationPrice: number;
  /** Percent from entry to the liquidation price: negative for a long, positive for a short. */
  distancePct: number;
}

/**
 * The spec's formula with the rate given. Without one, the default 0.5% under the engine's rule (half
 * the initial margin from 200x, where 0.5% would put the price at the entry), as a position is
 * stamped; a given rate that crosses the entry is the caller's to fix (mmrRefusal), never changed here.
 */
export function liquidation(input: LiquidationInput): LiquidationResult {
  const { entry, leverage, side } = input;
  const mmr = input.mmr ?? maintenancePct(leverage, MAINTENANCE_MARGIN_PCT);
  const price = liquidationPrice(entry, leverage, side, mmr);
  return { ...input, mmr, liquidationPrice: price, distancePct: ((price - entry) / entry) * 100 };
}

/** Why a given rate has no answer: it puts the liquidation at or past the entry (the position would open liquidated). */
export function mmrRefusal(input: LiquidationInput): string | undefined {
  if (input.mmr === undefined || !mmrCrossesEntry(input.leverage, input.mmr)) return undefined;
  return (
    `mmr ${input.mmr}% is at least the initial margin (100 / leverage = ${100 / input.leverage}%): the liquidation would be at or ` +
    `past the entry`
  );
}

export interface PositionSizeInput {
  balance: number;
  /** Percent of the balance put at risk. */
  risk: number;
  entry: number;
  stop: number;
  leverage?: number;
}

export interface PositionSizeResult extends PositionSizeInput {
  side: Side;
  riskAmount: number;
  positionSize: number;
  notional: number;
  /** Present only when leverage was given. */
  marginRequired?: number;
}

export function positionSize(input: PositionSizeInput): PositionSizeResult {
  const riskAmount = (input.balance * input.risk) / 100;
  const positionSize = riskAmount / Math.abs(input.entry - input.stop);
  const notional = positionSize * input.entry;
  const result: PositionSizeResult = {
    ...input,
    side: input.stop < input.entry ? 'long' : 'short',
    riskAmount,
    positionSize,
    notional,
  };
  if (input.leverage !== undefined) result.marginRequired = notional / input.leverage;
  return result;
}

export interface PnlInput {
  entry: number;
  exit: number;
  /** Units of the asset, not dollars. */
  size: number;
  leverage: number;
  side: Side;
}

export interface PnlResult extends PnlInput {
  pnl: number;
  roiPct: number;
  roePct: number;
}

export function pnl(input: PnlInput): PnlResult {
  const value = input.size * (input.exit - input.entry) * direction(input.side);
  const roiPct = (value / (input.entry * input.size)) * 100;
  return { ...input, pnl: value, roiPct, roePct: roiPct * input.leverage };
}

export interface RiskRewardInput {
  entry: number;
  stop: number;
  tp: number;
}

export interface RiskRewardResult extends RiskRewardInput {
  riskPerUnit: number;
  rewardPerUnit: number;
  riskRewardRatio: number;
  breakevenWinRatePct: number;
}

export function riskReward(input: RiskRewardInput): RiskRewardResult {
  const riskPerUnit = Math.abs(input.entry - input.stop);
  const rewardPerUnit = Math.abs(input.tp - input.entry);
  const riskRewardRatio = rewardPerUnit / riskPerUnit;
  return { ...input, riskPerUnit, rewardPerUnit, riskRewardRatio, breakevenWinRatePct: 100 / (1 + riskRewardRatio) };
}

export interface TakeProfitInput {
  entry: number;
  /** Target return on equity in percent. */
  roe: number;
  leverage: number;
  side: Side;
}

export interface TakeProfitResult extends TakeProfitInput {
  priceMovePct: number;
  targetExitPrice: number;
}

export function takeProfit(input: TakeProfitInput): TakeProfitResult {
  const priceMovePct = input.roe / input.leverage;
  const targetExitPrice = input.entry * (1 + (direction(input.side) * priceMovePct) / 100);
  return { ...input, priceMovePct, targetExitPrice };
}

/** True when every number in a result is finite, so it can be served as JSON. */
export function allFinite(result: object): boolean {
  return Object.values(result).every((value) => typeof value !== 'number' || Number.isFinite(value));
}
