import { expect } from 'chai';
import fc from 'fast-check';
import { aggregateCandles } from '../../shared/market/aggregate-candles.js';
import { backoffDelay } from '../../shared/core/backoff.js';
import { buildUniverse } from '../../shared/market/build-universe.js';
import { canonicalSymbol } from '../../shared/market/canonical-symbol.js';
import { aggregateQuote, medianOfFresh, type VenuePrice } from '../../shared/market/median-of-fresh.js';
import { VENUE_PRIORITY, type Candle, type Venue } from '../../shared/market/types.js';
import { assignShards } from '../../workers/streams/assign-shards.js';

const NOW = 1_700_000_000_000;
const FRESH = 10_000;
const venueArb = fc.constantFrom<Venue>(...VENUE_PRIORITY);
const priceArb = fc.double({ min: 0.0001, max: 1e6, noNaN: true });

describe('market: canonicalSymbol', () => {
  it('maps every accepted spelling to BTCUSDT', () => {
    for (const input of ['BTC', 'btc', 'BTCUSDT', 'btcusdt', 'BTC-USDT', 'BTC/USDT', 'BTC_USDT', ' BTC-USDT-SWAP ', 'btc/usdt']) {
      expect(canonicalSymbol(input), input).to.equal('BTCUSDT');
    }
    expect(canonicalSymbol('1000PEPE')).to.equal('1000PEPEUSDT');
    expect(canonicalSymbol('1inch-usdt')).to.equal('1INCHUSDT');
  });

  it('rejects junk', () => {
    for (const input of [
      '',
      '   ',
      'USDT',
      '-USDT',
      'BTC-ETH',
      'BTC USDT',
      'BTC$',
      '123',
      'ETH/BTC',
      'A'.repeat(41),
      'BTC-USD-SWAP',
      'BTC--USDT',
    ]) {
      expect(canonicalSymbol(input), JSON.stringify(input)).to.equal(null);
    }
    expect(canonicalSymbol(undefined)).to.equal(null);
    expect(canonicalSymbol(42)).to.equal(null);
  });

  it('is idempotent on its own output', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/), (base) => {
        const once = canonicalSymbol(base);
        expect(once).to.be.a('string');
        expect(canonicalSymbol(once)).to.equal(once);
      }),
    );
  });
});

describe('market: medianOfFresh', () => {
  const vp = (venue: Venue, price: number, age: number): VenuePrice => ({ venue, price, ts: NOW - age });

  it('takes the middle of an odd count and the mean of the middle two of an even count', () => {
    expect(medianOfFresh([vp('binance', 3, 0), vp('bybit', 1, 0), vp('okx', 2, 0)], NOW, FRESH)?.price).to.equal(2);
    expect(medianOfFresh([vp('binance', 4, 0), vp('bybit', 1, 0), vp('okx', 2, 0), vp('bitget', 3, 0)], NOW, FRESH)?.price).to.equal(2.5);
  });

  it('ignores stale and invalid prices, counts only the fresh ones and reports the newest time', () => {
    const m = medianOfFresh(
      [vp('binance', 100, 500), vp('bybit', 102, 1_000), vp('okx', 1, FRESH), vp('bitget', Number.NaN, 0)],
      NOW,
      FRESH,
    );
    expect(m).to.deep.equal({ price: 101, venues: 2, ts: NOW - 500, used: ['binance', 'bybit'] });
    expect(medianOfFresh([vp('binance', 100, FRESH + 1)], NOW, FRESH)).to.equal(null);
    expect(medianOfFresh([], NOW, FRESH)).to.equal(null);
  });

  it('property: lies between the min and max fresh price; stale venues never count', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ venue: venueArb, price: priceArb, age: fc.integer({ min: -1_000, max: 3 * FRESH }) }), { maxLength: 8 }),
        (rows) => {
          const prices = rows.map((r) => vp(r.venue, r.price, r.age));
          const fresh = rows.filter((r) => r.age < FRESH);
          const m = medianOfFresh(prices, NOW, FRESH);
          if (fresh.length === 0) {
            expect(m).to.equal(null);
            return;
          }
          expect(m).to.not.equal(null);
          const values = fresh.map((r) => r.price);
          expect(m!.venues).to.equal(fresh.length);
          expect(m!.price).to.be.at.least(Math.min(...values));
          expect(m!.price).to.be.at.most(Math.max(...values));
          expect(m!.ts).to.equal(Math.max(...fresh.map((r) => NOW - r.age)));
        },
      ),
    );
  });

  it('aggregateQuote takes the 24h change from the best fresh venue that has one', () => {
    const prices: VenuePrice[] = [
      { venue: 'binance', price: 100, ts: NOW - 20_000, changePct24h: 9 },
      { venue: 'bybit', price: 101, ts: NOW },
      { venue: 'okx', price: 102, ts: NOW, changePct24h: 1.5 },
    ];
    expect(aggregateQuote('BTCUSDT', prices, NOW, FRESH)).to.deep.equal({
      symbol: 'BTCUSDT',
      price: 101.5,
      venues: 2,
      changePct24h: 1.5,
      ts: NOW,
    });
  });
});

describe('market: aggregateCandles', () => {
  const minute = (i: number): number => 1_700_000_040_000 + i * 60_000 - (1_700_000_040_000 % 60_000);
  const candleArb = fc
    .record({ o: priceArb, h: priceArb, l: priceArb, c: priceArb, v: fc.double({ min: 0, max: 1e6, noNaN: true }) })
    .map(({ o, h, l, c, v }) => ({ open: o, close: c, high: Math.max(o, h, l, c), low: Math.min(o, h, l, c), volume: v }));

  it('property: per bucket high = max of highs, low = min of lows, open of first, close of last', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 80 }),
        fc.array(candleArb, { minLength: 80, maxLength: 80 }),
        fc.constantFrom(5, 15, 30, 60, 240, 1440),
        (offsets, bodies, interval) => {
          const ones: Candle[] = offsets.map((o, i) => ({ openTime: minute(o), ...bodies[i], closed: true }));
          const out = aggregateCandles(ones, interval);
          const size = interval * 60_000;
          expect(out.map((c) => c.openTime)).to.deep.equal([...out.map((c) => c.openTime)].sort((a, b) => a - b));
          for (const bucket of out) {
            const members = ones
              .filter((c) => Math.floor(c.openTime / size) * size === bucket.openTime)
              .sort((a, b) => a.openTime - b.openTime);
            expect(members.length).to.be.greaterThan(0);
            expect(bucket.high).to.equal(Math.max(...members.map((c) => c.high)));
            expect(bucket.low).to.equal(Math.min(...members.map((c) => c.low)));
            expect(bucket.open).to.equal(members[0].open);
            expect(bucket.close).to.equal(members[members.length - 1].close);
            expect(bucket.openTime % size).to.equal(0);
          }
          expect(new Set(out.map((c) => c.openTime)).size).to.equal(out.length);
        },
      ),
    );
  });

  it('marks a bucket closed only when its last minute is there and closed', () => {
    const base = 1_700_006_400_000; // a multiple of 5 minutes
    const c = (i: number, closed = true): Candle => ({
      openTime: base + i * 60_000,
      open: i + 1,
      high: i + 2,
      low: i,
      close: i + 1.5,
      volume: 1,
      closed,
    });
    const out = aggregateCandles([c(0), c(1), c(2), c(3), c(4), c(5), c(6, false)], 5);
    expect(out).to.have.length(2);
    expect(out[0]).to.include({ openTime: base, open: 1, close: 5.5, high: 6, low: 0, volume: 5, closed: true });
    expect(out[1]).to.include({ openTime: base + 300_000, open: 6, close: 7.5, closed: false });
    expect(() => aggregateCandles([], 0)).to.throw(RangeError);
    expect(aggregateCandles([], 5)).to.deep.equal([]);
  });
});

describe('market: buildUniverse', () => {
  it('merges by symbol, sums volumes, sorts descending and keeps the top N', () => {
    const u = buildUniverse(
      [
        { venue: 'bybit', symbol: 'ETHUSDT', assetClass: 'crypto', quoteVolume24h: 50 },
        { venue: 'binance', symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 60 },
        { venue: 'binance', symbol: 'ETHUSDT', assetClass: 'crypto', quoteVolume24h: 20 },
        { venue: 'okx', symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 5 },
        { venue: 'bitget', symbol: 'DOGEUSDT', assetClass: 'crypto', quoteVolume24h: 1 },
        { venue: 'okx', symbol: 'BADUSDT', assetClass: 'crypto', quoteVolume24h: Number.NaN },
      ],
      2,
    );
    expect(u).to.deep.equal([
      { symbol: 'ETHUSDT', assetClass: 'crypto', quoteVolume24h: 70, venues: ['binance', 'bybit'] },
      { symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 65, venues: ['binance', 'okx'] },
    ]);
  });

  it('takes a TradFi class from the venue that names one, whichever venue comes first', () => {
    const u = buildUniverse(
      [
        { venue: 'bitget', symbol: 'XAUUSDT', assetClass: 'crypto', quoteVolume24h: 5 },
        { venue: 'binance', symbol: 'XAUUSDT', assetClass: 'metal', closed: true, quoteVolume24h: 10 },
        { venue: 'bybit', symbol: 'TSLAUSDT', assetClass: 'stock', quoteVolume24h: 1 },
      ],
      5,
    );
    expect(u.map((e) => [e.symbol, e.assetClass, e.closed])).to.deep.equal([
      ['XAUUSDT', 'metal', true],
      ['TSLAUSDT', 'stock', undefined],
    ]);
  });
});

describe('market: assignShards', () => {
  it('keeps symbols where they were, fills gaps, opens shards when full', () => {
    const first = assignShards([], ['A', 'B', 'C', 'D', 'E'], 2);
    expect(first).to.deep.equal([['A', 'B'], ['C', 'D'], ['E']]);
    const second = assignShards(first, ['B', 'C', 'D', 'E', 'F', 'G'], 2);
    expect(second).to.deep.equal([
      ['B', 'F'],
      ['C', 'D'],
      ['E', 'G'],
    ]);
    expect(assignShards(second, [], 2, 1)).to.deep.equal([[]]);
    expect(assignShards(second, [], 2)).to.deep.equal([]);
  });

  it('property: every symbol exactly once, no shard over the limit', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 })),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 })),
        fc.integer({ min: 1, max: 5 }),
        (a, b, per) => {
          const shards = assignShards(assignShards([], a, per), b, per);
          expect(shards.flat().sort()).to.deep.equal([...b].sort());
          for (const s of shards) expect(s.length).to.be.at.most(per);
        },
      ),
    );
  });
});

describe('market: backoffDelay', () => {
  it('doubles from the minimum, is capped, and keeps at least half of the ceiling', () => {
    expect(backoffDelay(0, 250, 30_000, () => 0)).to.equal(125);
    expect(backoffDelay(0, 250, 30_000, () => 1)).to.equal(250);
    expect(backoffDelay(3, 250, 30_000, () => 1)).to.equal(2_000);
    expect(backoffDelay(50, 250, 30_000, () => 1)).to.equal(30_000);
    expect(backoffDelay(50, 250, 30_000, () => 0)).to.equal(15_000);
  });
});
