import { expect } from 'chai';
import fc from 'fast-check';
import {
  baseTakerPct,
  cappedRatePct,
  CLASS_TAKER_PCT,
  FEE_VENUES,
  findFeeVenue,
  venueEffectivePct,
  type AssetClass,
} from '../../shared/engine/fees.js';
import { fundingCost } from '../../shared/engine/funding.js';
import { liquidationPrice, maintenancePct } from '../../shared/engine/liquidation.js';
import { checkLevels, priceOpen } from '../../shared/engine/open-pricing.js';
import { settle, settleCents, settlePartial, type SettleInput } from '../../shared/engine/settlement.js';
import { toCents } from '../../shared/engine/side.js';

const price = fc.double({ min: 0.0001, max: 1e6, noNaN: true, noDefaultInfinity: true });
const leverage = fc.double({ min: 1, max: 1000, noNaN: true, noDefaultInfinity: true });
const margin = fc.double({ min: 1, max: 100_000, noNaN: true, noDefaultInfinity: true });
const side = fc.constantFrom('long' as const, 'short' as const);
const assetClass = fc.constantFrom<AssetClass>('crypto', 'stock', 'forex', 'metal', 'index');
/** Exit within -90%..+200% of entry, funding up to the margin either way. */
const position = fc
  .record({
    side,
    entry: price,
    lev: leverage,
    margin,
    move: fc.double({ min: -0.9, max: 2, noNaN: true }),
    funding: fc.double({ min: -1, max: 1, noNaN: true }),
    cls: assetClass,
  })
  .map(({ side: s, entry, lev, margin: m, move, funding, cls }): SettleInput & { leverage: number } => {
    const priced = priceOpen({ side: s, entry, margin: m, leverage: lev, baseRatePct: CLASS_TAKER_PCT[cls] });
    return {
      side: s,
      qty: priced.qty,
      entry,
      exit: entry * (1 + move),
      ratePct: priced.ratePct,
      fundingUsd: funding * m * 0.1,
      margin: m,
      leverage: lev,
    };
  });

describe('engine (pure money math)', () => {
  describe('opening', () => {
    it('prices a hand-checked long: qty = margin x leverage / entry, liq at 0.5% maintenance, fees at the class rate', () => {
      const p = priceOpen({ side: 'long', entry: 65000, margin: 100, leverage: 10, baseRatePct: 0.055 });
      expect(p.qty).to.be.closeTo(1000 / 65000, 1e-15);
      expect(p.liqPrice).to.be.closeTo(58825, 1e-6); // 65000 x (1 - 0.1 + 0.005)
      expect(p.feeOpen).to.be.closeTo(0.55, 1e-12);
      expect(p.feeRoundTrip).to.be.closeTo(1.1, 1e-12);
      expect(p.ratePct).to.equal(0.055);
    });

    it('lowers the per-side rate above about 182x so a round trip at entry costs at most 20% of the margin', () => {
      expect(cappedRatePct(0.055, 180)).to.equal(0.055);
      expect(cappedRatePct(0.055, 1000)).to.be.closeTo(0.01, 1e-15);
      fc.assert(
        fc.property(margin, leverage, assetClass, (m, lev, cls) => {
          const p = priceOpen({ side: 'long', entry: 100, margin: m, leverage: lev, baseRatePct: CLASS_TAKER_PCT[cls] });
          return p.feeRoundTrip <= 0.2 * m * (1 + 1e-12) && p.ratePct <= CLASS_TAKER_PCT[cls];
        }),
      );
    });

    it("stamps the spec's formula, entry x (1 - 1/leverage + mmr/100), wherever it lies on the losing side", () => {
      // 150x long at 60000: 60000 x (1 - 1/150 + 0.005) = 59900 (not 59800 under a 50/leverage cap)
      expect(priceOpen({ side: 'long', entry: 60000, margin: 100, leverage: 150, baseRatePct: 0.055 }).liqPrice).to.be.closeTo(59900, 1e-6);
      expect(maintenancePct(199)).to.equal(0.5);
      const spec = (entry: number, lev: number, s: 'long' | 'short', mmr: number): number =>
        s === 'long' ? entry * (1 - 1 / lev + mmr / 100) : entry * (1 + 1 / lev - mmr / 100);
      fc.assert(
        fc.property(price, leverage, side, fc.double({ min: 0.01, max: 10, noNaN: true }), (entry, lev, s, mmr) => {
          fc.pre(mmr * lev < 100 * (1 - 1e-9));
          const p = priceOpen({ side: s, entry, margin: 100, leverage: lev, baseRatePct: 0.055, flatMmrPct: mmr });
          return p.mmrPct === mmr && Math.abs(p.liqPrice - spec(entry, lev, s, mmr)) <= 1e-9 * entry;
        }),
        { numRuns: 1000 },
      );
    });

    it('where the formula would cross the entry, stamps half the initial margin, so the price stays on the losing side', () => {
      expect(maintenancePct(200)).to.equal(0.25);
      expect(maintenancePct(1000)).to.equal(0.05);
      fc.assert(
        fc.property(price, leverage, side, fc.double({ min: 0.01, max: 10, noNaN: true }), (entry, lev, s, flat) => {
          const mmr = maintenancePct(lev, flat);
          const liq = liquidationPrice(entry, lev, s, mmr);
          const crosses = flat * lev >= 100 * (1 - 1e-9);
          return (crosses ? mmr === 50 / lev : mmr === flat) && (s === 'long' ? liq < entry && liq > 0 : liq > entry);
        }),
        { numRuns: 1000 },
      );
    });

    it('checks stops and targets against the entry side', () => {
      expect(checkLevels('long', 100, 90, 110)).to.equal(null);
      expect(checkLevels('long', 100, 100, undefined)).to.equal('sl_wrong_side');
      expect(checkLevels('long', 100, undefined, 99)).to.equal('tp_wrong_side');
      expect(checkLevels('short', 100, 110, 90)).to.equal(null);
      expect(checkLevels('short', 100, 95, null)).to.equal('sl_wrong_side');
      expect(checkLevels('short', 100, null, 101)).to.equal('tp_wrong_side');
    });
  });

  describe('fee venues', () => {
    it("lists the nine venues with the original's names, rates, maker rates and code; effective = taker x (1 - discount)", () => {
      const table = FEE_VENUES.map((v) => [v.venue, v.takerPct, v.referralDiscountPct, venueEffectivePct(v), v.makerPct, v.code]);
      expect(table).to.deep.equal([
        ['bybit', 0.055, 20, 0.044, 0.02, null],
        ['binance', 0.05, 20, 0.04, 0.02, null],
        ['bitget', 0.06, 20, 0.048, 0.02, null],
        ['gate', 0.05, 20, 0.04, 0.02, null],
        ['hyperliquid', 0.045, 4, 0.0432, 0.015, 'MARGINPAD'],
        ['okx', 0.05, 0, 0.05, 0.02, null],
        ['kraken', 0.05, 0, 0.05, 0.02, null],
        ['mexc', 0.02, 0, 0.02, 0, null],
        ['kucoin', 0.06, 0, 0.06, 0.02, null],
      ]);
      // the spec's grouping: four at 0.055/0.050/0.060/0.050 with 20% off, one at 0.045 with 4%, four without
      expect(FEE_VENUES.filter((v) => v.referralDiscountPct === 20).map((v) => v.takerPct)).to.deep.equal([0.055, 0.05, 0.06, 0.05]);
      expect(FEE_VENUES.filter((v) => v.referralDiscountPct === 0).map((v) => v.takerPct)).to.deep.equal([0.05, 0.05, 0.02, 0.06]);
    });

    it('applies a venue to crypto only', () => {
      const bitget = findFeeVenue('bitget');
      expect(baseTakerPct('crypto', bitget).ratePct).to.equal(0.048);
      expect(baseTakerPct('metal', bitget)).to.deep.equal({ ratePct: 0.015, venue: undefined });
      expect(baseTakerPct('forex', undefined).ratePct).to.equal(0.008);
    });
  });

  describe('settlement', () => {
    it('settles a hand-checked long and short: gross - round trip - funding', () => {
      // 0.1 BTC long 60000 -> 61000 at 0.055%: gross 100, fees 0.1 x 121000 x 0.00055 = 6.655, funding 1
      const long = settle({ side: 'long', qty: 0.1, entry: 60000, exit: 61000, ratePct: 0.055, fundingUsd: 1, margin: 600 });
      expect(long.pnl).to.be.closeTo(100 - 6.655 - 1, 1e-9);
      const short = settle({ side: 'short', qty: 0.1, entry: 60000, exit: 61000, ratePct: 0.055, fundingUsd: -1, margin: 600 });
      expect(short.pnl).to.be.closeTo(-100 - 6.655 + 1, 1e-9);
    });

    it('property: never loses more than the margin', () => {
      fc.assert(
        fc.property(position, (p) => settle(p).pnl >= -p.margin && settleCents(p) >= -toCents(p.margin)),
        { numRuns: 500 },
      );
    });

    it('property: a round trip at the entry price costs at most 20% of the margin', () => {
      fc.assert(
        fc.property(position, (p) => settle({ ...p, exit: p.entry, fundingUsd: 0 }).fees <= 0.2 * p.margin * (1 + 1e-12)),
        { numRuns: 500 },
      );
    });

    it('holds a round trip at 20% of the margin with the exit leg: 1000x, $100, +0.08% pays 20, not 20.008', () => {
      const p = priceOpen({ side: 'long', entry: 100, margin: 100, leverage: 1000, baseRatePct: 0.055 });
      const s = settle({ side: 'long', qty: p.qty, entry: 100, exit: 100.08, ratePct: p.ratePct, fundingUsd: 0, margin: 100 });
      expect(s.fees).to.equal(20);
      expect(s.pnl).to.be.closeTo(80 - 20, 1e-9);
    });

    it("property: the fee is the spec's qty x (entry + exit) x rate, or 20% of the margin where that is less", () => {
      fc.assert(
        fc.property(position, (p) => {
          const fees = settle(p).fees;
          const spec = p.qty * (p.entry + p.exit) * (p.ratePct / 100);
          return fees <= 0.2 * p.margin && (fees === spec || (spec > 0.2 * p.margin && fees === 0.2 * p.margin));
        }),
        { numRuns: 1000 },
      );
    });

    it('property: a partial close followed by the rest settles to the cent what one close at the same price does', () => {
      const pct = fc.double({ min: 1, max: 99.999, noNaN: true });
      fc.assert(
        fc.property(position, pct, (p, share) => {
          const part = settlePartial(p, share / 100);
          const rest: SettleInput = {
            ...p,
            qty: part.split.remaining.qty,
            margin: part.split.remaining.margin,
            fundingUsd: part.split.remaining.fundingUsd,
          };
          return part.closedCents + settleCents(rest) === settleCents(p);
        }),
        { numRuns: 1000 },
      );
    });

    it('property: long and short mirror each other (gross opposite, fees equal, liquidation symmetric)', () => {
      fc.assert(
        fc.property(position, (p) => {
          const long = settle({ ...p, side: 'long', fundingUsd: 0, margin: Infinity });
          const short = settle({ ...p, side: 'short', fundingUsd: 0, margin: Infinity });
          const mmr = maintenancePct(p.leverage);
          const liqLong = liquidationPrice(p.entry, p.leverage, 'long', mmr);
          const liqShort = liquidationPrice(p.entry, p.leverage, 'short', mmr);
          const tol = 1e-9 * Math.max(1, Math.abs(long.gross), p.entry);
          return (
            Math.abs(long.gross + short.gross) <= tol &&
            long.fees === short.fees &&
            Math.abs(liqLong - p.entry + (liqShort - p.entry)) <= tol
          );
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('funding', () => {
    it('charges a long a positive rate and pays a short, at each recorded mark', () => {
      const records = [
        { time: 0, rate: 0.0001, mark: 60000 },
        { time: 1, rate: -0.0002, mark: 50000 },
      ];
      expect(fundingCost('long', 2, records)).to.be.closeTo(2 * (6 - 10), 1e-9);
      expect(fundingCost('short', 2, records)).to.be.closeTo(-2 * (6 - 10), 1e-9);
    });
  });
});
