import { expect } from 'chai';
import fc from 'fast-check';
import { ASSET_CLASSES } from '../../shared/engine/fees.js';
import { classifyQuote, closedForOpens, isFrozenTradFi, priceSince, unchangedFor } from '../../shared/market/quote-freshness.js';

const rules = { freshMs: 10_000, staleMaxMs: 300_000, tradfiFrozenMs: 3_600_000 };
const quote = (ts: number) => ({ symbol: 'BTCUSDT', price: 65000, venues: 4, changePct24h: 1.2, ts });

describe('quote freshness (pure)', () => {
  it('serves a young quote as fresh, an older one as stale with its age, and nothing past the stale limit', () => {
    const now = 1_000_000_000;
    expect(classifyQuote(quote(now - 10_000), now, rules).kind).to.equal('fresh');
    expect(classifyQuote(quote(now - 10_001), now, rules)).to.deep.include({ kind: 'stale', ageMs: 10_001 });
    expect(classifyQuote(quote(now - 300_000), now, rules).kind).to.equal('stale');
    expect(classifyQuote(quote(now - 300_001), now, rules).kind).to.equal('unavailable');
    expect(classifyQuote(null, now, rules).kind).to.equal('unavailable');
  });

  it('never calls a quote fresh once it is older than freshMs, and ages grow with time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 1e6 }), (ts, age) => {
        const state = classifyQuote(quote(ts), ts + age, rules);
        if (age <= rules.freshMs) return state.kind === 'fresh';
        if (age <= rules.staleMaxMs) return state.kind === 'stale' && state.ageMs === age;
        return state.kind === 'unavailable';
      }),
    );
  });

  describe('a TradFi price that stopped moving', () => {
    const freshMs = rules.freshMs;
    it('carries the start of an unchanged price on while the venues keep publishing it, and restarts on a move or a gap', () => {
      const t = 1_000_000_000;
      const first = { price: 2400, ts: t };
      expect(priceSince(null, first, freshMs)).to.equal(t);
      const second = { price: 2400, ts: t + 5_000, sinceTs: priceSince(first, { price: 2400, ts: t + 5_000 }, freshMs) };
      expect(second.sinceTs).to.equal(t);
      expect(priceSince(second, { price: 2400, ts: t + 9_000 }, freshMs)).to.equal(t);
      expect(unchangedFor({ ts: t + 9_000, sinceTs: t })).to.equal(9_000);
      // a move restarts it; so does a gap as long as a price stays fresh (nobody heard the market then)
      expect(priceSince(second, { price: 2400.1, ts: t + 9_000 }, freshMs)).to.equal(t + 9_000);
      expect(priceSince(second, { price: 2400, ts: t + 5_000 + freshMs }, freshMs)).to.equal(t + 5_000 + freshMs);
      // a quote stored before the start was kept counts from its own time
      expect(priceSince({ price: 2400, ts: t }, { price: 2400, ts: t + 1 }, freshMs)).to.equal(t);
      expect(unchangedFor({ ts: t })).to.equal(0);
    });

    it('never starts an unchanged price later than its quote, nor before the previous start', () => {
      const point = fc.record({ price: fc.constantFrom(1, 2), ts: fc.integer({ min: 0, max: 1e6 }) });
      fc.assert(
        fc.property(point, fc.integer({ min: 0, max: 1e6 }), point, (prev, back, next) => {
          const since = priceSince({ ...prev, sinceTs: Math.max(0, prev.ts - back) }, next, freshMs);
          return since <= next.ts && (since === next.ts || since >= Math.max(0, prev.ts - back));
        }),
      );
    });

    it('is stale for opens past TRADFI_FROZEN_MS for every class but crypto, and never with the rule off', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...ASSET_CLASSES),
          fc.integer({ min: 0, max: 1e9 }),
          fc.integer({ min: 0, max: 1e8 }),
          (cls, unchanged, limit) => {
            const frozen = isFrozenTradFi(cls, unchanged, { tradfiFrozenMs: limit });
            return frozen === (cls !== 'crypto' && limit > 0 && unchanged > limit);
          },
        ),
      );
      expect(isFrozenTradFi('metal', 3_600_001, rules)).to.equal(true);
      expect(isFrozenTradFi('metal', 3_600_000, rules)).to.equal(false);
      expect(isFrozenTradFi('crypto', 1e12, rules)).to.equal(false);
    });

    it("closes a TradFi market for opens on the exchange's word first, else on a frozen price; a coin's never", () => {
      expect(closedForOpens('stock', true, 0, rules)).to.equal('exchange');
      expect(closedForOpens('stock', true, 1e12, rules)).to.equal('exchange');
      expect(closedForOpens('forex', false, 3_600_001, rules)).to.equal('frozen');
      expect(closedForOpens('index', false, 3_600_000, rules)).to.equal(null);
      fc.assert(
        fc.property(
          fc.boolean(),
          fc.integer({ min: 0, max: 1e12 }),
          (says, unchanged) => closedForOpens('crypto', says, unchanged, rules) === null,
        ),
      );
    });
  });
});
