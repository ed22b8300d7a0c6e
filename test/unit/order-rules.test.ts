import { expect } from 'chai';
import fc from 'fast-check';
import {
  candleFills,
  candleReaches,
  checkPlacement,
  expiresAt,
  LEVEL_MAX_DISTANCE_PCT,
  MINUTE_MS,
  ORDER_TTL_MS,
  reachOf,
  watermarkAfter,
  type OrderType,
} from '../../shared/engine/order-rules.js';
import type { Side } from '../../shared/engine/side.js';

const price = fc.double({ min: 0.0001, max: 1e6, noNaN: true, noDefaultInfinity: true });
const type = fc.constantFrom<OrderType>('limit', 'stop');
const side = fc.constantFrom<Side>('long', 'short');
const ms = fc.integer({ min: 0, max: 4e12 });
/** A candle as low <= high from two prices. */
const range = fc.tuple(price, price).map(([a, b]) => ({ low: Math.min(a, b), high: Math.max(a, b) }));

describe('order rules (pure)', () => {
  it('fills a limit long and a stop short when the market comes down to the level, the other two when it goes up', () => {
    expect(reachOf('limit', 'long')).to.equal('down');
    expect(reachOf('stop', 'short')).to.equal('down');
    expect(reachOf('limit', 'short')).to.equal('up');
    expect(reachOf('stop', 'long')).to.equal('up');
  });

  it('rests a limit long below the market and a short above; a stop long above and a short below; the level at the market is refused', () => {
    expect(checkPlacement('limit', 'long', 64000, 65000)).to.equal(null);
    expect(checkPlacement('limit', 'long', 66000, 65000)).to.equal('limit_marketable');
    expect(checkPlacement('limit', 'long', 65000, 65000)).to.equal('limit_marketable');
    expect(checkPlacement('limit', 'short', 66000, 65000)).to.equal(null);
    expect(checkPlacement('limit', 'short', 64000, 65000)).to.equal('limit_marketable');
    expect(checkPlacement('stop', 'long', 66000, 65000)).to.equal(null);
    expect(checkPlacement('stop', 'long', 64000, 65000)).to.equal('stop_wrong_side');
    expect(checkPlacement('stop', 'short', 64000, 65000)).to.equal(null);
    expect(checkPlacement('stop', 'short', 65000, 65000)).to.equal('stop_wrong_side');
  });

  it('refuses exactly the levels the market at placement would reach at once: never a silent market fill', () => {
    fc.assert(
      fc.property(type, side, price, price, (t, s, level, market) => {
        const refusal = checkPlacement(t, s, level, market);
        const wouldFillNow = candleReaches(reachOf(t, s), level, { low: market, high: market });
        const far = Math.abs(level - market) > (market * LEVEL_MAX_DISTANCE_PCT) / 100;
        if (wouldFillNow) expect(refusal).to.equal(t === 'limit' ? 'limit_marketable' : 'stop_wrong_side');
        else expect(refusal).to.equal(far ? 'limit_price_far' : null);
      }),
    );
  });

  it('refuses a level more than 50% away from the market (limit_price_far), on either side, and takes one at 50%', () => {
    expect(LEVEL_MAX_DISTANCE_PCT).to.equal(50);
    expect(checkPlacement('limit', 'long', 32500, 65000)).to.equal(null);
    expect(checkPlacement('limit', 'long', 32499, 65000)).to.equal('limit_price_far');
    expect(checkPlacement('limit', 'short', 97500, 65000)).to.equal(null);
    expect(checkPlacement('limit', 'short', 97501, 65000)).to.equal('limit_price_far');
    expect(checkPlacement('stop', 'long', 97501, 65000)).to.equal('limit_price_far');
    expect(checkPlacement('stop', 'short', 0.01, 65000)).to.equal('limit_price_far');
  });

  it('a candle reaches a down level when its low is at or below it, an up level when its high is at or above it', () => {
    fc.assert(
      fc.property(price, range, (level, candle) => {
        expect(candleReaches('down', level, candle)).to.equal(candle.low <= level);
        expect(candleReaches('up', level, candle)).to.equal(candle.high >= level);
      }),
    );
    expect(candleReaches('down', 100, { low: 100, high: 105 })).to.equal(true);
    expect(candleReaches('up', 100, { low: 95, high: 100 })).to.equal(true);
    expect(candleReaches('up', 100, { low: 95, high: 99.99 })).to.equal(false);
  });

  it('starts the watermark at the next minute boundary (or now, on a boundary)', () => {
    expect(watermarkAfter(120_000)).to.equal(120_000);
    expect(watermarkAfter(120_001)).to.equal(180_000);
    fc.assert(
      fc.property(ms, (now) => {
        const w = watermarkAfter(now);
        expect(w % MINUTE_MS).to.equal(0);
        expect(w).to.be.at.least(now);
        expect(w - now).to.be.below(MINUTE_MS);
        expect(watermarkAfter(w)).to.equal(w);
      }),
    );
  });

  it('fills only from candles at or after the watermark, and then exactly when the range reached the level', () => {
    fc.assert(
      fc.property(type, side, price, range, ms, ms, (t, s, level, candle, placed, minute) => {
        const order = { reach: reachOf(t, s), level, watermark: watermarkAfter(placed) };
        const bar = { ...candle, minute: minute - (minute % MINUTE_MS) };
        const fills = candleFills(order, bar);
        if (bar.minute < order.watermark) expect(fills).to.equal(false);
        else expect(fills).to.equal(candleReaches(order.reach, level, candle));
      }),
    );
  });

  it('after a modify, no candle that opened before the modify fills the order, whatever its range', () => {
    fc.assert(
      fc.property(type, side, price, range, ms, fc.integer({ min: 1, max: 10 * MINUTE_MS }), (t, s, level, candle, minute, later) => {
        const bar = { ...candle, minute: minute - (minute % MINUTE_MS) };
        const modifiedAt = bar.minute + later; // any time after the candle opened, even within its minute
        expect(candleFills({ reach: reachOf(t, s), level, watermark: watermarkAfter(modifiedAt) }, bar)).to.equal(false);
      }),
    );
  });

  it('expires 30 days after placement', () => {
    expect(ORDER_TTL_MS).to.equal(30 * 86_400_000);
    fc.assert(fc.property(ms, (placed) => expiresAt(placed) === placed + ORDER_TTL_MS));
  });
});
