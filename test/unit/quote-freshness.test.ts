import { expect } from 'chai';
import fc from 'fast-check';
import { classifyQuote } from '../../shared/market/quote-freshness.js';

const rules = { freshMs: 10_000, staleMaxMs: 300_000 };
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
});
