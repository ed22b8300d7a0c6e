import { expect } from 'chai';
import fc from 'fast-check';
import { liquidation, mmrRefusal, pnl, positionSize, riskReward, takeProfit } from '../../shared/calculators/calculators.js';
import { liquidationPrice, maintenancePct } from '../../shared/engine/liquidation.js';

const price = fc.double({ min: 0.0001, max: 1e7, noNaN: true, noDefaultInfinity: true });
const lev = fc.double({ min: 1, max: 1000, noNaN: true, noDefaultInfinity: true });
const side = fc.constantFrom('long' as const, 'short' as const);
const close = (a: number, b: number, rel = 1e-9): boolean => Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

describe('calculators (pure)', () => {
  describe('liquidation', () => {
    it('matches hand-checked examples for long and short', () => {
      // long 10x at 65000, mmr 0.5%: 65000 x (1 - 0.1 + 0.005) = 58825
      const long = liquidation({ entry: 65000, leverage: 10, side: 'long', mmr: 0.5 });
      expect(long.liquidationPrice).to.be.closeTo(58825, 1e-6);
      expect(long.distancePct).to.be.closeTo(-9.5, 1e-9);
      // short 20x at 2000, mmr 0.5%: 2000 x (1 + 0.05 - 0.005) = 2090
      const short = liquidation({ entry: 2000, leverage: 20, side: 'short', mmr: 0.5 });
      expect(short.liquidationPrice).to.be.closeTo(2090, 1e-9);
      expect(short.distancePct).to.be.closeTo(4.5, 1e-9);
    });

    it("answers the spec's formula with a given mmr (125x, 0.42: 99.62) and the engine's rule without one", () => {
      const given = liquidation({ entry: 100, leverage: 125, side: 'long', mmr: 0.42 });
      expect(given.mmr).to.equal(0.42);
      expect(given.liquidationPrice).to.be.closeTo(99.62, 1e-9);
      expect(mmrRefusal({ entry: 100, leverage: 125, side: 'long', mmr: 0.42 })).to.equal(undefined);
      // without mmr: 0.5 up to 200x; from there half the margin, as a position is stamped
      expect(liquidation({ entry: 100, leverage: 150, side: 'long' }).liquidationPrice).to.be.closeTo(100 * (1 - 1 / 150 + 0.005), 1e-9);
      const long = liquidation({ entry: 100, leverage: 500, side: 'long' });
      expect(long.mmr).to.be.closeTo(0.1, 1e-12);
      expect(long.liquidationPrice).to.equal(liquidationPrice(100, 500, 'long', maintenancePct(500)));
      expect(liquidation({ entry: 100, leverage: 200, side: 'short' }).liquidationPrice).to.be.closeTo(100.25, 1e-9);
    });

    it('refuses a given mmr of 100/leverage or more (the price at or past the entry), and only that', () => {
      expect(mmrRefusal({ entry: 100, leverage: 200, side: 'long', mmr: 0.5 })).to.match(/mmr 0.5%/);
      fc.assert(
        fc.property(price, lev, side, fc.double({ min: 0, max: 99, noNaN: true }), (entry, leverage, s, mmr) => {
          const refused = mmrRefusal({ entry, leverage, side: s, mmr }) !== undefined;
          const { liquidationPrice: at } = liquidation({ entry, leverage, side: s, mmr });
          const losingSide = s === 'long' ? at < entry : at > entry;
          return refused ? mmr * leverage >= 100 * (1 - 1e-9) : losingSide;
        }),
        { numRuns: 1000 },
      );
    });

    it('keeps a long liquidation below entry and a short one above at any leverage without mmr', () => {
      fc.assert(
        fc.property(price, fc.double({ min: 0.01, max: 1000, noNaN: true }), side, (entry, leverage, s) => {
          const { liquidationPrice: at } = liquidation({ entry, leverage, side: s });
          return s === 'long' ? at < entry : at > entry;
        }),
      );
    });

    it('puts a long liquidation below entry and a short one above (leverage >= 1, mmr below 1/leverage)', () => {
      fc.assert(
        fc.property(price, lev, side, (entry, leverage, s) => {
          const mmr = (100 / leverage) * 0.5;
          const { liquidationPrice, distancePct } = liquidation({ entry, leverage, side: s, mmr });
          if (s === 'long') return liquidationPrice < entry && distancePct < 0;
          return liquidationPrice > entry && distancePct > 0;
        }),
      );
    });
  });

  describe('position size', () => {
    it('matches a hand-checked example', () => {
      // risk 1% of 10000 = 100 over a 1000 stop distance = 0.1 BTC, notional 6500, margin at 5x = 1300
      const result = positionSize({ balance: 10000, risk: 1, entry: 65000, stop: 64000, leverage: 5 });
      expect(result).to.include({ riskAmount: 100, side: 'long' });
      expect(result.positionSize).to.be.closeTo(0.1, 1e-12);
      expect(result.notional).to.be.closeTo(6500, 1e-9);
      expect(result.marginRequired).to.be.closeTo(1300, 1e-9);
    });

    it('omits marginRequired without leverage and reads a stop above entry as a short', () => {
      const result = positionSize({ balance: 5000, risk: 2, entry: 100, stop: 110 });
      expect(result).to.not.have.property('marginRequired');
      expect(result.side).to.equal('short');
      expect(result.positionSize).to.be.closeTo(10, 1e-12);
    });

    it('loses exactly the risk amount when the stop is hit', () => {
      fc.assert(
        fc.property(price, price, fc.double({ min: 0.01, max: 100, noNaN: true }), (entry, stop, risk) => {
          fc.pre(Math.abs(entry - stop) / entry > 1e-6);
          const r = positionSize({ balance: 10000, risk, entry, stop });
          return close(r.positionSize * Math.abs(entry - stop), r.riskAmount, 1e-9);
        }),
      );
    });
  });

  describe('pnl', () => {
    it('matches hand-checked examples', () => {
      const long = pnl({ entry: 65000, exit: 66300, size: 0.5, leverage: 10, side: 'long' });
      expect(long.pnl).to.be.closeTo(650, 1e-9);
      expect(long.roiPct).to.be.closeTo(2, 1e-9);
      expect(long.roePct).to.be.closeTo(20, 1e-9);
      const short = pnl({ entry: 100, exit: 90, size: 3, leverage: 5, side: 'short' });
      expect(short.pnl).to.be.closeTo(30, 1e-9);
      expect(short.roePct).to.be.closeTo(50, 1e-9);
    });

    it('signs the pnl by side and scales ROE by leverage', () => {
      fc.assert(
        fc.property(price, price, fc.double({ min: 0.001, max: 1e6, noNaN: true }), lev, side, (entry, exit, size, leverage, s) => {
          const r = pnl({ entry, exit, size, leverage, side: s });
          const expectedSign = Math.sign(exit - entry) * (s === 'long' ? 1 : -1);
          return Math.sign(r.pnl) === expectedSign && close(r.roePct, r.roiPct * leverage);
        }),
      );
    });
  });

  describe('risk-reward', () => {
    it('matches a hand-checked example', () => {
      const r = riskReward({ entry: 65000, stop: 64000, tp: 68000 });
      expect(r).to.include({ riskPerUnit: 1000, rewardPerUnit: 3000, riskRewardRatio: 3, breakevenWinRatePct: 25 });
    });

    it('keeps breakeven win rate = 100 / (1 + ratio), between 0 and 100', () => {
      fc.assert(
        fc.property(price, price, price, (entry, stop, tp) => {
          fc.pre(entry !== stop);
          const r = riskReward({ entry, stop, tp });
          return close(r.breakevenWinRatePct, 100 / (1 + r.riskRewardRatio)) && r.breakevenWinRatePct > 0 && r.breakevenWinRatePct <= 100;
        }),
      );
    });
  });

  describe('take-profit', () => {
    it('matches hand-checked examples', () => {
      const long = takeProfit({ entry: 65000, roe: 50, leverage: 10, side: 'long' });
      expect(long.priceMovePct).to.equal(5);
      expect(long.targetExitPrice).to.be.closeTo(68250, 1e-9);
      const short = takeProfit({ entry: 2000, roe: 20, leverage: 4, side: 'short' });
      expect(short.targetExitPrice).to.be.closeTo(1900, 1e-9);
    });

    it('reaches the requested ROE when closed at the target (round trip through pnl)', () => {
      fc.assert(
        fc.property(price, fc.double({ min: -90, max: 500, noNaN: true }), lev, side, (entry, roe, leverage, s) => {
          const { targetExitPrice } = takeProfit({ entry, roe, leverage, side: s });
          fc.pre(targetExitPrice > 0);
          const back = pnl({ entry, exit: targetExitPrice, size: 1, leverage, side: s });
          return close(back.roePct, roe, 1e-6);
        }),
      );
    });
  });
});
