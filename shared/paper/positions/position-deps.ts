/** What the position services share: stores, prices, the clock and the id source. */
import type { Clock } from '../../core/clock.js';
import { fundingCost, type FundingRecord } from '../../engine/funding.js';
import type { ChangeGate } from '../change-gate.js';
import type { FeeSettings } from '../fees/fee-settings.js';
import type { FundingStore } from '../funding/funding-store.js';
import type { DepthStore } from '../../market/depth-store.js';
import type { LivePrices } from '../markets/live-prices.js';
import type { SimSettings } from '../sim/sim-settings.js';
import type { PositionStore } from './position-store.js';
import type { Position } from './position-types.js';
import { timedId } from '../timed-ids.js';

export interface PositionDeps {
  store: PositionStore;
  prices: LivePrices;
  funding: FundingStore;
  fees: FeeSettings;
  clock: Clock;
  /** Where a client's changes of one position meet (one at a time per pod, bounded retries across pods). */
  changes: ChangeGate;
  /** The books' simulation profiles (shared/paper/sim). */
  sim: SimSettings;
  /** The majors' order books, for fills that walk them. */
  depth: DepthStore;
}

/** bp + the time in base 36 + 8 random base-36 characters. */
export const defaultPositionId = (now: number): string => timedId('bp', now);

/** How many times the sweep recomputes a change when the position moved underneath it. */
export const MAX_ATTEMPTS = 8;

/** Funding a position owes at `now`: what it carried over plus the funding times since funding_from_ts. */
export async function fundingOwed(funding: FundingStore, p: Position, now: number): Promise<number> {
  return fundingFrom(p, await funding.between(p.symbol, p.funding_from_ts, now));
}

/** Its carry plus what `records` (funding times after funding_from_ts) cost it, times its funding_mult (absent: 1). */
export function fundingFrom(p: Position, records: readonly FundingRecord[]): number {
  return p.funding_carry_usd + fundingCost(p.side, p.qty, records) * (p.funding_mult ?? 1);
}
