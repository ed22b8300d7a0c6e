import { expect } from 'chai';
import fc from 'fast-check';
import { fundingCost } from '../../shared/engine/funding.js';
import { increase, type IncreaseBase } from '../../shared/engine/increase.js';
import { liquidationPrice, maintenancePct } from '../../shared/engine/liquidation.js';
import { priceOpen } from '../../shared/engine/open-pricing.js';
import type { Side } from '../../shared/engine/side.js';

/** A position as priceOpen opens it: margin at leverage, at entry, the flat maintenance rate and crypto's taker rate. */
function opened(side: Side, entry: number, margin: number, leverage: number): IncreaseBase {
  const priced = priceOpen({ side, entry, margin, leverage, baseRatePct: 0.055 });
  return {
    side,
    qty: priced.qty,
    entry,
    margin,
    mmr_pct: priced.mmrPct,
    fee_rate_pct: priced.ratePct,
    fee_open_usd: priced.feeOpen,
    fee_round_trip_usd: priced.feeRoundTrip,
  };
}

const close = (actual: number, expected: number, rel = 1e-9) => expect(actual).to.be.closeTo(expected, Math.abs(expected) * rel + 1e-12);

const arb = {
  side: fc.constantFrom<Side>('long', 'short'),
  entry: fc.double({ min: 1, max: 100_000, noNaN: true }),
  move: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
  margin: fc.double({ min: 1, max: 10_000, noNaN: true }),
  leverage: fc.integer({ min: 1, max: 100 }),
  share: fc.double({ min: 0.01, max: 5, noNaN: true }),
};

describe('engine: increasing an open position (pure)', () => {
  it('an increase of 0.01 BTC at 66000 onto 0.01 at 65000 (10x): entry 65500, margins and fees add up, liq from the combined position', () => {
    const p = opened('long', 65000, 65, 10);
    const out = increase(p, { addQty: 0.01, fillPrice: 66000, leverage: 10, now: 1000, fundingOwed: 0.25 });
    if (!out.ok) throw new Error('refused');
    expect(out.fields).to.include({ entry: 65500, leverage: 10, margin: 131, notional_usd: 1310 });
    expect(out.fields).to.include({ funding_carry_usd: 0.25, funding_from_ts: 1000 });
    close(out.fields.qty, 0.02);
    close(out.fields.fee_open_usd, 0.3575 + 0.363);
    expect(out.fields.liq_price).to.equal(liquidationPrice(65500, 10, 'long', 0.5));
  });

  it('properties: entry between the old entry and the fill, margin and notional add up, liq as an open of the combined position', () => {
    fc.assert(
      fc.property(arb.side, arb.entry, arb.move, arb.margin, arb.leverage, arb.leverage, arb.share, (side, e1, move, m1, l1, l2, share) => {
        const p = opened(side, e1, m1, l1);
        const fill = e1 * (1 + move);
        const addQty = p.qty * share;
        const out = increase(p, { addQty, fillPrice: fill, leverage: l2, now: 5, fundingOwed: 0 });
        if (!out.ok) {
          // refused only where the combined position would be liquidated at the fill
          expect((out.liqPrice - fill) * (side === 'long' ? 1 : -1)).to.be.at.least(-1e-9 * fill);
          return;
        }
        const f = out.fields;
        expect(f.entry).to.be.within(Math.min(e1, fill) * (1 - 1e-11), Math.max(e1, fill) * (1 + 1e-11));
        close(f.qty, p.qty + addQty);
        close(f.margin, m1 + (addQty * fill) / l2);
        close(out.addedMargin, (addQty * fill) / l2);
        // the weighted entry keeps both legs' cost: settlement's open leg is q1 e1 + q2 e2
        close(f.qty * f.entry, p.qty * e1 + addQty * fill);
        close(f.leverage, (f.qty * f.entry) / f.margin);
        close(f.liq_price, liquidationPrice(f.entry, f.leverage, side, p.mmr_pct));
        close(f.fee_open_usd, p.fee_open_usd + (addQty * fill * p.fee_rate_pct) / 100);
        expect((f.liq_price - fill) * (side === 'long' ? 1 : -1)).to.be.below(0);
      }),
    );
  });

  it('properties: at the entry price and the same leverage the entry and leverage stay, and the liq price is the open formula of the sum', () => {
    fc.assert(
      fc.property(arb.side, arb.entry, arb.margin, arb.leverage, arb.share, (side, e1, m1, lev, share) => {
        const p = opened(side, e1, m1, lev);
        const out = increase(p, { addQty: p.qty * share, fillPrice: e1, leverage: lev, now: 5, fundingOwed: 0 });
        if (!out.ok) throw new Error('refused at the entry price');
        close(out.fields.entry, e1, 1e-11);
        close(out.fields.leverage, lev, 1e-11);
        // an open of the combined margin at the entry prices the same position
        const whole = priceOpen({ side, entry: e1, margin: m1 * (1 + share), leverage: lev, baseRatePct: 0.055 });
        close(out.fields.qty, whole.qty);
        close(out.fields.liq_price, whole.liqPrice, 1e-11);
        close(out.fields.fee_open_usd, whole.feeOpen);
      }),
    );
  });

  it('carries the funding owed so far: later funding times accrue on the new quantity only from the increase on', () => {
    fc.assert(
      fc.property(arb.side, fc.double({ min: -50, max: 50, noNaN: true }), arb.share, (side, owed, share) => {
        const p = opened(side, 100, 50, 5);
        const out = increase(p, { addQty: p.qty * share, fillPrice: 100, leverage: 5, now: 7_200_000, fundingOwed: owed });
        if (!out.ok) throw new Error('refused');
        expect(out.fields).to.include({ funding_carry_usd: owed, funding_from_ts: 7_200_000 });
        const later = [{ time: 8 * 3_600_000, rate: 0.0001, mark: 100 }];
        // what the position owes at the next funding time: the carry plus the new quantity over that time
        const owes = out.fields.funding_carry_usd + fundingCost(side, out.fields.qty, later);
        close(owes, owed + fundingCost(side, p.qty, later) + fundingCost(side, p.qty * share, later));
      }),
    );
  });

  it('refuses an add whose combined position would be liquidated at the fill (a leg whose maintenance outweighs its margin)', () => {
    // a venue's 1.25% maintenance, near the liquidation (51.25): a 100x leg adds less margin than maintenance
    const p = { ...opened('long', 100, 50, 2), mmr_pct: 1.25 };
    const out = increase(p, { addQty: 50, fillPrice: 52, leverage: 100, now: 5, fundingOwed: 0 });
    expect(out).to.deep.include({ ok: false, reason: 'liquidates' });
    expect(increase(p, { addQty: 1, fillPrice: 52, leverage: 2, now: 5, fundingOwed: 0 }).ok).to.equal(true);
    // the half-margin rule of a 0.7% maintenance at 150x, then a 400x leg: the maintenance crosses the entry
    const high = { ...opened('short', 100, 10, 150), mmr_pct: maintenancePct(150, 0.7) };
    expect(increase(high, { addQty: high.qty * 10, fillPrice: 100, leverage: 400, now: 5, fundingOwed: 0 }).ok).to.equal(false);
  });
});
