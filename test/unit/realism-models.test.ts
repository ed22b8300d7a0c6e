/** The realism models on hand-computed examples, and their properties (shared/engine: slippage, fill, margin, cost, sim profile). */
import { expect } from 'chai';
import fc from 'fast-check';
import { bookImpactBps, linearDepthUsd, quoteFill, type DepthLevel } from '../../shared/engine/fill-model.js';
import { liquidationPrice, maintenancePct } from '../../shared/engine/liquidation.js';
import { findMarginVenue, MARGIN_TIERS, MARGIN_VENUES, maintenanceRate, tierOf } from '../../shared/engine/margin-model.js';
import { isMajor, MAJOR_PAIRS } from '../../shared/engine/majors.js';
import { effectiveProfile, modelEntry } from '../../shared/engine/realism.js';
import {
  applyChange,
  DEFAULT_PROFILE,
  parseProfile,
  PRESET_NAMES,
  presetProfile,
  profileLabel,
  rejected,
  seededDraw,
  type SimProfile,
} from '../../shared/engine/sim-profile.js';
import { exitPrice, slippedPrice, tableSlippageBps } from '../../shared/engine/slippage.js';
import { decide, gapFill, liveWindow } from '../../shared/engine/triggers.js';
import { MAJOR_PAIRS as MARKET_MAJORS } from '../../shared/market/majors.js';

const profile = (fields: Partial<SimProfile>): SimProfile => ({ ...DEFAULT_PROFILE, ...fields });

describe('realism models (pure)', () => {
  describe('slippage table', () => {
    it('charges 1 bp on majors, 5 on thinner crypto, 0.5 on forex, 2 on stocks, metals and indices', () => {
      expect(tableSlippageBps('BTCUSDT', 'crypto')).to.equal(1);
      expect(tableSlippageBps('LINKUSDT', 'crypto')).to.equal(5);
      expect(tableSlippageBps('EURUSDT', 'forex')).to.equal(0.5);
      expect(tableSlippageBps('TSLAUSDT', 'stock')).to.equal(2);
      expect(tableSlippageBps('XAUUSDT', 'metal')).to.equal(2);
      expect(tableSlippageBps('SPX500USDT', 'index')).to.equal(2);
    });

    it('moves a buy up and a sell down: BTC 60000 at 1 bp buys at 60006 and sells at 59994', () => {
      expect(slippedPrice(60000, 'buy', 1)).to.be.closeTo(60006, 1e-9);
      expect(slippedPrice(60000, 'sell', 1)).to.be.closeTo(59994, 1e-9);
    });

    it('defines the majors once: the market module answers the engine list itself', () => {
      expect(MARKET_MAJORS).to.equal(MAJOR_PAIRS);
      expect(isMajor('ETHUSDT')).to.equal(true);
      expect(isMajor('LINKUSDT')).to.equal(false);
    });
  });

  describe('fill model', () => {
    it('adds linear impact to the spread: 200k at 5 bps per 100k is 10 bps, plus 1 bp of spread: 60000 x 1.0011 = 60066', () => {
      const q = quoteFill({
        trade: 'buy',
        reference: 60000,
        notional: 200_000,
        slippageBps: 1,
        impact: 5,
        partialFills: false,
        minFillPct: 10,
      });
      expect(q.ok && q.price).to.be.closeTo(60066, 1e-6);
      expect(q.ok && q.impactBps).to.be.closeTo(10, 1e-12);
    });

    it('walks a book: 252 USD over asks 100x1, 101x1, 102x10 buys 1 + 1 + 0.5 = 2.5 at 100.8, 80 bps over the touch', () => {
      const asks: DepthLevel[] = [
        [100, 1],
        [101, 1],
        [102, 10],
      ];
      expect(bookImpactBps(asks, 'buy', 252)).to.be.closeTo(80, 1e-9);
      // sells: bids 100x1, 99x1: 149.5 USD sells 1 + 0.5 = 1.5 at 99.666..., 33.33 bps under the touch
      expect(
        bookImpactBps(
          [
            [100, 1],
            [99, 1],
          ],
          'sell',
          149.5,
        ),
      ).to.be.closeTo(33.3333333, 1e-6);
    });

    it('fills part of an order past the depth: 50 bps per 100k holds 200k, so 400k fills 50%; a 60% minimum refuses it', () => {
      expect(linearDepthUsd(50)).to.equal(200_000);
      const base = { trade: 'buy' as const, reference: 100, notional: 400_000, slippageBps: 0, impact: 50, partialFills: true };
      const half = quoteFill({ ...base, minFillPct: 10 });
      expect(half).to.include({ ok: true, fillPct: 50, partial: true });
      // 200k at 50 bps per 100k moves 100 bps: 101
      expect(half.ok && half.price).to.be.closeTo(101, 1e-9);
      expect(quoteFill({ ...base, minFillPct: 60 })).to.deep.include({ ok: false, refusal: 'fill_below_min', fillPct: 50 });
    });

    it('stamps a partial entry with the margin that filled: 4000 requested, 50% fills 2000', () => {
      const entry = modelEntry({
        profile: profile({ impact_bps_per_100k: 50, partial_fills: true }),
        symbol: 'BTCUSDT',
        assetClass: 'crypto',
        side: 'long',
        reference: 100,
        margin: 4000,
        leverage: 100,
        tablePct: 0.055,
      });
      expect(entry.ok && entry.fill).to.deep.equal({ requested_margin_usd: 4000, filled_margin_usd: 2000, fill_pct: 50, partial: true });
      // 2000 x 100 / 101 units, 1 USD each over the quote of 100
      expect(entry.ok && entry.slippageUsd).to.be.closeTo(200_000 / 101, 1e-6);
    });
  });

  describe('margin model', () => {
    it('publishes five tiers, tier 0 at 0.5%, and places notionals in them', () => {
      expect(MARGIN_TIERS).to.have.length(5);
      expect(MARGIN_TIERS[0]).to.include({ tier: 0, mmrPct: 0.5 });
      expect(tierOf(50_000).tier).to.equal(0);
      expect(tierOf(250_000).tier).to.equal(1);
      expect(tierOf(1_000_000).tier).to.equal(3);
      expect(tierOf(50_000_000).tier).to.equal(4);
    });

    it("has eleven venues, the spec's six at their rates, each with a source", () => {
      expect(MARGIN_VENUES).to.have.length(11);
      const rates = Object.fromEntries(MARGIN_VENUES.map((v) => [v.venue, v.mmrPct]));
      expect(rates).to.include({ binance: 0.4, bybit: 0.5, mexc: 0.1, kraken: 0.6, hyperliquid: 1.25, coinbase: 1.33 });
      for (const v of MARGIN_VENUES) expect(v.source).to.be.a('string').and.not.equal('');
    });

    it('adds the tier step to the base: binance at 2M is 0.4 + (2.5 - 0.5) = 2.4%; an override replaces the base', () => {
      expect(maintenanceRate({ notional: 2_000_000, leverage: 10, venue: 'binance', tiers: true }).mmrPct).to.be.closeTo(2.4, 1e-12);
      expect(maintenanceRate({ notional: 2_000_000, leverage: 10, venue: 'binance', tiers: false }).mmrPct).to.equal(0.4);
      expect(maintenanceRate({ notional: 1000, leverage: 10, venue: 'binance', tiers: false, overridePct: 1 })).to.include({
        mmrPct: 1,
        base: 'override',
      });
      // still never more than half the initial margin: 500x holds at most 0.1%
      expect(maintenanceRate({ notional: 5_000_000, leverage: 500, venue: '', tiers: true }).mmrPct).to.equal(0.1);
      expect(findMarginVenue('nowhere')).to.equal(undefined);
    });

    it('moves the liquidation price: a 10x long at 100 liquidates at 90.5 flat, at 91.25 at the hyperliquid rate of 1.25%', () => {
      // entry x (1 - (1/10 - mmr)): 100 x (1 - 0.095) = 90.5; 100 x (1 - 0.0875) = 91.25
      expect(liquidationPrice(100, 10, 'long', 0.5)).to.be.closeTo(90.5, 1e-9);
      const hl = maintenanceRate({ notional: 1000, leverage: 10, venue: 'hyperliquid', tiers: false }).mmrPct;
      expect(liquidationPrice(100, 10, 'long', hl)).to.be.closeTo(91.25, 1e-9);
    });
  });

  describe('sim profile', () => {
    it('round-trips every preset: its profile is labelled with its name', () => {
      for (const name of PRESET_NAMES) {
        const p = presetProfile(name, 25_000);
        expect(profileLabel(p), name).to.equal(name);
        expect(parseProfile(JSON.stringify(p))).to.deep.equal(p);
        expect(p.start_balance_usd).to.equal(25_000);
      }
      expect(profileLabel(DEFAULT_PROFILE)).to.equal('default');
      expect(profileLabel(profile({ latency_ms: 7 }))).to.equal('custom');
    });

    it('keeps omitted fields, lets sent fields win over a preset, and resets to the defaults', () => {
      const current = profile({ slippage: true, start_balance_usd: 5000 });
      expect(applyChange(current, { fields: { margin_tiers: true } })).to.include({ slippage: true, margin_tiers: true });
      expect(applyChange(current, { preset: 'binance', fields: { taker_bps: 2 } })).to.include({
        taker_bps: 2,
        margin_venue: 'binance',
        start_balance_usd: 5000,
      });
      expect(applyChange(current, { reset: true, fields: {} })).to.deep.equal(DEFAULT_PROFILE);
    });

    it('applies the per-call overrides of an open over the book profile, for that fill only', () => {
      const book = profile({ slippage: true });
      expect(effectiveProfile(book, { slippage: false, mmr_pct: 2 })).to.include({ slippage: false, mmr_pct: 2, margin_tiers: false });
      expect(effectiveProfile(book, {})).to.equal(book);
    });

    it('draws the same refusals from the same seed, about the rate asked', () => {
      const run = (seed: number) => Array.from({ length: 200 }, (_, n) => rejected(seed, n, 30));
      expect(run(42)).to.deep.equal(run(42));
      expect(run(42)).to.not.deep.equal(run(43));
      const share = Array.from({ length: 20_000 }, (_, n) => seededDraw(7, n)).filter((d) => d < 0.3).length / 20_000;
      expect(share).to.be.closeTo(0.3, 0.02);
      expect(run(42).filter(Boolean).length).to.be.greaterThan(0);
      expect(Array.from({ length: 200 }, (_, n) => rejected(42, n, 0)).some(Boolean)).to.equal(false);
    });
  });

  describe('gap-aware exits', () => {
    const base = { side: 'long' as const, sl: 95, tp: 110, liq_price: 90.5, trail_pct: null, trail_hwm: null, opened_ts: 0 };
    it('settles a long stop at a live price of 94 (it never traded at 95) only when the position is gap-aware', () => {
      expect(decide({ ...base, exit_slippage_bps: 1 }, liveWindow(94, 60_000), false)).to.deep.equal({
        kind: 'settle',
        trigger: { reason: 'stop_loss', price: 94 },
      });
      expect(decide(base, liveWindow(94, 60_000), false)).to.deep.equal({ kind: 'settle', trigger: { reason: 'stop_loss', price: 95 } });
    });

    it('keeps a target at its level however far the open jumped past it', () => {
      expect(gapFill({ reason: 'take_profit', price: 110 }, 'long', 120)).to.deep.equal({ reason: 'take_profit', price: 110 });
      expect(gapFill({ reason: 'stop_loss', price: 105 }, 'short', 108)).to.deep.equal({ reason: 'stop_loss', price: 108 });
      expect(gapFill({ reason: 'stop_loss', price: 105 }, 'short', 101)).to.deep.equal({ reason: 'stop_loss', price: 105 });
    });

    it('slips a manual exit against the trader: a long sells 1 bp under 100, a short buys 1 bp over', () => {
      expect(exitPrice('long', 100, 1)).to.be.closeTo(99.99, 1e-12);
      expect(exitPrice('short', 100, 1)).to.be.closeTo(100.01, 1e-12);
      expect(exitPrice('long', 100, undefined)).to.equal(100);
    });
  });

  describe('properties', () => {
    const ref = fc.double({ min: 0.0001, max: 1e6, noNaN: true, noDefaultInfinity: true });
    const notional = fc.double({ min: 1, max: 1e8, noNaN: true, noDefaultInfinity: true });
    const trade = fc.constantFrom('buy' as const, 'sell' as const);
    const levels = fc
      .array(fc.tuple(fc.double({ min: 0.0001, max: 10, noNaN: true }), fc.double({ min: 0.001, max: 1000, noNaN: true })), {
        minLength: 1,
        maxLength: 50,
      })
      .map((steps) => {
        // a side of a book, best first: each level further from the touch than the one before
        let price = 100;
        return steps.map(([gap, size]): DepthLevel => [(price += gap), size]);
      });

    it('never fills in the trader’s favour: a buy at or above the quote, a sell at or below', () => {
      fc.assert(
        fc.property(
          ref,
          notional,
          trade,
          fc.double({ min: 0, max: 500, noNaN: true }),
          fc.double({ min: 0, max: 1000, noNaN: true }),
          (r, n, t, bps, impact) => {
            const q = quoteFill({ trade: t, reference: r, notional: n, slippageBps: bps, impact, partialFills: false, minFillPct: 10 });
            if (!q.ok) return false;
            return t === 'buy' ? q.price >= r : q.price <= r;
          },
        ),
      );
    });

    it('moves the fill monotonically with size, linear and along a book', () => {
      fc.assert(
        fc.property(notional, notional, fc.double({ min: 0, max: 1000, noNaN: true }), levels, (a, b, impact, asks) => {
          const [small, large] = a <= b ? [a, b] : [b, a];
          const lin = (n: number) =>
            quoteFill({ trade: 'buy', reference: 100, notional: n, slippageBps: 0, impact, partialFills: false, minFillPct: 10 });
          const l1 = lin(small);
          const l2 = lin(large);
          const okLinear = l1.ok && l2.ok && l1.price <= l2.price;
          return okLinear && bookImpactBps(asks, 'buy', small) <= bookImpactBps(asks, 'buy', large) + 1e-9;
        }),
      );
    });

    it('never fills more than the request', () => {
      fc.assert(
        fc.property(
          fc.double({ min: 1, max: 100_000, noNaN: true }),
          fc.double({ min: 1, max: 1000, noNaN: true }),
          fc.double({ min: 0, max: 1000, noNaN: true }),
          fc.double({ min: 1, max: 100, noNaN: true }),
          (margin, leverage, impact, minFill) => {
            const entry = modelEntry({
              profile: profile({ impact_bps_per_100k: impact, partial_fills: true, min_fill_pct: minFill }),
              symbol: 'BTCUSDT',
              assetClass: 'crypto',
              side: 'long',
              reference: 100,
              margin,
              leverage,
              tablePct: 0.055,
            });
            return (
              !entry.ok || (entry.fill.filled_margin_usd <= margin && entry.fill.fill_pct <= 100 && entry.fill.fill_pct >= minFill - 1e-9)
            );
          },
        ),
      );
    });

    it('never liquidates later with tiers than without, unless the tiered rate crosses the entry (then half the margin)', () => {
      const venue = fc.constantFrom('', ...MARGIN_VENUES.map((v) => v.venue));
      fc.assert(
        fc.property(
          ref,
          fc.double({ min: 1, max: 1000, noNaN: true }),
          notional,
          fc.constantFrom('long' as const, 'short' as const),
          venue,
          (entry, lev, n, side, v) => {
            const rate = (tiers: boolean) => maintenanceRate({ notional: n, leverage: lev, venue: v, tiers }).mmrPct;
            if (rate(true) === 50 / lev)
              return liquidationPrice(entry, lev, side, rate(true)) === liquidationPrice(entry, lev, side, maintenancePct(lev, 100));
            const flat = liquidationPrice(entry, lev, side, rate(false));
            const tiered = liquidationPrice(entry, lev, side, rate(true));
            // nearer the entry (reached first): higher for a long, lower for a short
            return side === 'long' ? tiered >= flat - 1e-9 * entry : tiered <= flat + 1e-9 * entry;
          },
        ),
      );
    });
  });
});
