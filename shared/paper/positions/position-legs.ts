/**
 * The fills a position was opened with: the open alone, or, once added to (the engine's increase), the open and each
 * add as its own leg. Pure.
 */
import { trimNumber } from '../../engine/side.js';
import type { Position, PositionLeg } from './position-types.js';

export type LegSource = Pick<Position, 'qty' | 'entry' | 'fee_open_usd' | 'opened_ts' | 'legs'>;

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/**
 * The position's legs scaled to its quantity and to `openFee` (default its fee_open_usd): a partial close leaves the
 * legs unscaled on both parts, so each part's legs add up to its own quantity and entry fee.
 */
export function legsOf(p: LegSource, openFee = p.fee_open_usd): PositionLeg[] {
  const legs = p.legs ?? [];
  if (legs.length === 0) return [{ qty: p.qty, price: p.entry, fee: openFee, ts: p.opened_ts, v: 0 }];
  const qtys = sum(legs.map((l) => l.qty));
  const fees = sum(legs.map((l) => l.fee));
  return legs.map((l) => ({
    ...l,
    qty: trimNumber((l.qty * p.qty) / qtys),
    fee: trimNumber(fees > 0 ? (l.fee * openFee) / fees : openFee / legs.length),
  }));
}

/** The legs after an add: the position's own (scaled as it stands), then the added one. */
export function withAddedLeg(p: LegSource, added: PositionLeg): PositionLeg[] {
  return [...legsOf(p), added];
}
