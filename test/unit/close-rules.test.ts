import { expect } from 'chai';
import fc from 'fast-check';
import { AppError } from '../../shared/core/errors.js';
import { largestPartialPct, leavesValidRemainder, MIN_MARGIN_USD } from '../../shared/engine/settlement.js';
import { trimNumber } from '../../shared/engine/side.js';
import { computeClose, crossedTrigger, triggeredClose } from '../../shared/engine/close-record.js';
import { checkRemainder } from '../../shared/paper/positions/close-service.js';
import type { Position } from '../../shared/paper/positions/position-types.js';
import { testPosition } from '../helpers/sweep.js';

const ref = { accountId: 'acc1', book: 'main' };
const withMargin = (margin: number): Position => ({ ...testPosition(ref, { symbol: 'ETHUSDT', side: 'long', entry: 100 }), margin });

/** The refusal checkRemainder throws, or null when it accepts. */
function refusal(p: Position, pct: number): AppError | null {
  try {
    checkRemainder(p, pct);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('closing rules (pure): the remainder of a partial close, and the triggers a close meets', () => {
  describe('a partial close leaves no remainder below the minimum margin', () => {
    it('refuses by name, with the margin it would leave and the largest share that may be closed', () => {
      const small = withMargin(1.5);
      const error = refusal(small, 99.49);
      expect(error).to.include({ code: 'remaining_margin_min_1', status: 400 });
      expect(error!.details).to.deep.equal({ id: small.id, remaining_margin_usd: 0.00765, min_margin_usd: 1, max_pct: 33.33 });
      expect(refusal(withMargin(1.5), 33.33)).to.equal(null);
      expect(refusal(withMargin(1.5), 100)).to.equal(null);
      // float noise is no reason to refuse: 90% of 10 leaves 1
      expect(refusal(withMargin(10), 90)).to.equal(null);
      expect(trimNumber(computeClose(withMargin(10), 100, 90, 0, 1, 'manual').remaining!.margin)).to.equal(1);
      expect(largestPartialPct(10)).to.equal(90);
      expect(largestPartialPct(100)).to.equal(99);
      expect(largestPartialPct(1.0005)).to.equal(null);
      expect(refusal(withMargin(1.0005), 1)!.details).to.include({ max_pct: null });
    });

    it('in general: after any accepted close the remainder is none or holds at least the minimum; a refused one names a share that is accepted and the largest such', () => {
      const margin = fc.double({ min: 1, max: 100_000, noNaN: true, noDefaultInfinity: true });
      const pct = fc.oneof(fc.double({ min: 1, max: 100, noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 1, max: 100 }));
      fc.assert(
        fc.property(margin, pct, (m, share) => {
          const p = withMargin(m);
          const error = refusal(p, share);
          if (error === null) {
            const { remaining } = computeClose(p, 101, share, 0.5, p.opened_ts + 1, 'manual');
            return remaining === null || trimNumber(remaining.margin) >= MIN_MARGIN_USD;
          }
          const max = error.details.max_pct as number | null;
          if (max === null) return !leavesValidRemainder(m, 1) && share < 100;
          return max < share && refusal(p, max) === null && (max >= 99.99 || !leavesValidRemainder(m, trimNumber(max + 0.01)));
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('a close meets the triggers the live price crossed', () => {
    const long = testPosition(ref, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 95, tp: 110 });
    const after = long.opened_ts + 1;

    it('answers the stop, target, trailing stop or liquidation the price is past, at its level', () => {
      expect(crossedTrigger(long, { price: 94, ts: after })).to.deep.equal({ reason: 'stop_loss', price: 95 });
      expect(crossedTrigger(long, { price: 111, ts: after })).to.deep.equal({ reason: 'take_profit', price: 110 });
      expect(crossedTrigger(long, { price: 96, ts: after })).to.equal(null);
      expect(crossedTrigger({ ...long, sl: null }, { price: 80, ts: after })).to.deep.equal({
        reason: 'liquidation',
        price: long.liq_price,
      });
      const trailing = { ...long, sl: null, trail_pct: 5, trail_hwm: 104 };
      expect(crossedTrigger(trailing, { price: 98, ts: after })).to.deep.equal({ reason: 'trailing_stop', price: 98.8 });
      const short = { ...testPosition(ref, { symbol: 'ETHUSDT', side: 'short', entry: 100, sl: 105, tp: 90 }), opened_ts: long.opened_ts };
      expect(crossedTrigger(short, { price: 106, ts: after })).to.deep.equal({ reason: 'stop_loss', price: 105 });
      expect(crossedTrigger(short, { price: 89, ts: after })).to.deep.equal({ reason: 'take_profit', price: 90 });
      // a price from before the open says nothing about the position
      expect(crossedTrigger(long, { price: 94, ts: long.opened_ts })).to.equal(null);
    });

    it('settles the whole position as that trigger: a liquidation marked as one', () => {
      const stop = triggeredClose(long, { reason: 'stop_loss', price: 95 }, 0, after);
      expect(stop.remaining).to.equal(null);
      expect(stop.closed).to.deep.equal(computeClose(long, 95, 100, 0, after, 'stop_loss').closed);
      const liq = triggeredClose(long, { reason: 'liquidation', price: long.liq_price }, 0, after);
      expect(liq.closed).to.include({ close_reason: 'liquidation', liquidated: true, exit: long.liq_price, status: 'closed' });
    });
  });
});
