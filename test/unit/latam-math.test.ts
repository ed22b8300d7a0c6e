import { expect } from 'chai';
import fc from 'fast-check';
import { agio, brecha, dropOutliers, median, midOf, spreadPct } from '../../shared/latam/latam-math.js';
import { brVenueInputs, buildArQuote, buildBrQuote } from '../../shared/latam/latam-quotes.js';
import { failingSources, recordAttempts, usableData } from '../../shared/latam/latam-sources.js';
import { expectedDolar } from '../helpers/latam.js';

describe('regional quote math (pure)', () => {
  it('takes medians of odd and even counts', () => {
    expect(median([3, 1, 2])).to.equal(2);
    expect(median([4, 1, 3, 2])).to.equal(2.5);
    expect(median([])).to.equal(null);
  });

  it('computes brecha and agio by hand', () => {
    expect(brecha(1320, 1200)).to.be.closeTo(10, 1e-9);
    expect(brecha(1080, 1200)).to.be.closeTo(-10, 1e-9);
    expect(brecha(1000, null)).to.equal(null);
    // 255,000 / (50,000 x 5) - 1 = 2 %
    expect(agio(255_000, 50_000, 5)).to.be.closeTo(2, 1e-9);
    expect(agio(255_000, null, 5)).to.equal(null);
    expect(spreadPct(102, 98)).to.be.closeTo(4, 1e-9);
  });

  describe('Argentina, on constructed quotes', () => {
    // two-sided mids: a 99, b 101, c 99, d 129; e quotes one side only
    const quotes = [
      { id: 'a', ask: 100, bid: 98, time: null },
      { id: 'b', ask: 102, bid: 100, time: null },
      { id: 'c', ask: 101, bid: 97, time: null },
      { id: 'd', ask: 130, bid: 128, time: null },
      { id: 'e', ask: 0, bid: 95, time: null },
    ];
    const dolar = { official: 90, blue: 110, mep: 99, ccl: 100, card: 144, bids: { blue: 108 } };
    const q = buildArQuote(quotes, dolar);

    it('drops the venue 29 % off the median of 100 and the one-sided venue; mid is the median of the rest', () => {
      expect(q.dropped).to.deep.equal(['d']);
      expect(q.n).to.equal(3);
      expect(q.mid).to.equal(99);
    });

    it('sorts rows by buy price and names the best venues', () => {
      expect(q.rows.map((r) => r.id)).to.deep.equal(['a', 'c', 'b']);
      expect(q.rows.map((r) => r.spread)).to.deep.equal([2.02, 4.04, 1.98]);
      expect(q.bestBuy).to.deep.equal({ id: 'a', name: 'A', ask: 100, price: 100 });
      expect(q.bestSell).to.deep.equal({ id: 'b', name: 'B', bid: 100, price: 100 });
    });

    it("computes the brecha against every reference dollar, by the original's Spanish names and the earlier English ones", () => {
      // 99/90 - 1 = 10 %, 99/110 - 1 = -10 %, 99/99 - 1 = 0, 99/100 - 1 = -1 %, 99/144 - 1 = -31.25 %
      expect(q.brecha).to.deep.equal({ oficial: 10, blue: -10, mep: 0, ccl: -1, tarjeta: -31.25, official: 10, card: -31.25 });
    });

    it('names each reference dollar an object with its ask, and its bid where the source quotes one', () => {
      expect(q.dolar).to.deep.equal(expectedDolar({ oficial: 90, blue: 110, mep: 99, ccl: 100, tarjeta: 144 }, { blue: 108 }));
      expect(buildArQuote(quotes, { official: null, blue: 110, mep: null, ccl: null, card: null }).dolar).to.deep.include({
        oficial: null,
        blue: { ask: 110 },
      });
    });

    it('answers an empty quote with no venues', () => {
      expect(buildArQuote(null, null)).to.deep.include({ n: 0, mid: null, bestBuy: null, rows: [], brecha: null });
    });
  });

  describe('Brazil, on constructed quotes', () => {
    const venues = brVenueInputs(
      {
        'mercado-bitcoin': { btc: { ask: 250_000, bid: 249_000 }, usdt: { ask: 5.0, bid: 4.98 } },
        foxbit: { btc: { ask: 252_000, bid: 251_000 }, usdt: { ask: 5.02, bid: 5.0 } },
      },
      {
        btc: [
          { id: 'binance', ask: 251_000, bid: 250_500, time: null },
          { id: 'bitpreco', ask: 330_000, bid: 329_000, time: null },
          { id: 'mercadobitcoin', ask: 1, bid: 1, time: null },
        ],
        usdt: [{ id: 'binance', ask: 5.01, bid: 5.0, time: null }],
      },
    );
    const q = buildBrQuote(venues, 50_000, { rate: 5, source: 'awesomeapi', ts: null });

    it("adds the taker fee to direct venues (0.7 % Mercado Bitcoin, 0.5 % Foxbit) and skips CriptoYa's copy of them", () => {
      expect(venues.map((v) => v.id).sort()).to.deep.equal(['binance', 'bitpreco', 'foxbit', 'mercado-bitcoin']);
      const mb = q.btc.find((r) => r.id === 'mercado-bitcoin');
      expect(mb).to.include({ ask: 251_750, bid: 247_257 });
      expect(q.usdt.find((r) => r.id === 'mercado-bitcoin')).to.include({ ask: 5.035, bid: 4.9451 });
      expect(q.btc.find((r) => r.id === 'foxbit')).to.include({ ask: 253_260, bid: 249_745 });
    });

    it('drops the venue 31 % off the BTC median and takes the medians of the rest', () => {
      expect(q.dropped).to.deep.equal({ btc: ['bitpreco'], usdt: [] });
      expect(q.n).to.equal(3);
      // mids 249,503.5, 250,750, 251,502.5
      expect(q.btcMid).to.equal(250_750);
      // mids 4.99007, 5.005, 5.01005
      expect(q.usdtMid).to.equal(5.005);
    });

    it('computes fair and the agio per venue: ask / (50,000 x 5) - 1', () => {
      expect(q.fair).to.equal(250_000);
      expect(q.btc.map((r) => [r.id, r.agio])).to.deep.equal([
        ['binance', 0.4],
        ['mercado-bitcoin', 0.7],
        ['foxbit', 1.3],
      ]);
      expect(q.agioMid).to.equal(0.7);
      expect(q.usdt.map((r) => [r.id, r.agio])).to.deep.equal([
        ['binance', 0.2],
        ['mercado-bitcoin', 0.7],
        ['foxbit', 0.9],
      ]);
      expect(q.usdtAgioMid).to.equal(0.7);
      expect(q.bestBuy.btc).to.deep.equal({ id: 'binance', name: 'Binance', ask: 251_000, price: 251_000 });
      expect(q.bestSell.btc).to.deep.equal({ id: 'binance', name: 'Binance', bid: 250_500, price: 250_500 });
      expect(q).to.include({ usdbrl: 5, usdbrlSource: 'awesomeapi', btcUsd: 50_000 });
    });

    it('leaves agio and fair null without BTC/USD', () => {
      const without = buildBrQuote(venues, null, { rate: 5, source: 'bcb-ptax', ts: null });
      expect(without.fair).to.equal(null);
      expect(without.agioMid).to.equal(null);
      expect(without.btc.every((r) => r.agio === null)).to.equal(true);
      expect(without.usdtAgioMid).to.equal(0.7);
    });
  });

  describe('properties', () => {
    const price = fc.double({ min: 1, max: 1e6, noNaN: true });
    const venue = fc.record({ id: fc.string({ minLength: 1, maxLength: 8 }), ask: price, bid: price });

    it('a median lies between the smallest and largest value', () => {
      fc.assert(
        fc.property(fc.array(fc.double({ min: -1e9, max: 1e9, noNaN: true }), { minLength: 1 }), (xs) => {
          const m = median(xs);
          expect(m).to.be.within(Math.min(...xs), Math.max(...xs));
        }),
      );
    });

    it('keeps exactly the venues within 20 % of the median mid, and the kept mids stay within that band', () => {
      fc.assert(
        fc.property(fc.array(venue, { maxLength: 12 }), (quotes) => {
          const { reference, kept, dropped } = dropOutliers(quotes);
          expect(kept.length + dropped.length).to.equal(quotes.length);
          if (reference === null) return;
          for (const q of kept) expect(Math.abs(midOf(q) / reference - 1)).to.be.at.most(0.2);
          for (const q of dropped) expect(Math.abs(midOf(q) / reference - 1)).to.be.greaterThan(0.2);
        }),
      );
    });
  });

  describe('the sources book', () => {
    it("keeps a failing source's last good data, marks it failing, and forgets data older than an hour", () => {
      let book = recordAttempts({}, { s: { ok: true, data: [1] } }, 1_000);
      book = recordAttempts(book, { s: { ok: false, error: 'HTTP 503' } }, 2_000);
      expect(book.s).to.deep.include({ ok: false, at: 1_000, data: [1], error: 'HTTP 503', attemptAt: 2_000 });
      expect(failingSources(book, ['s', 'never-asked'])).to.deep.equal(['s']);
      expect(usableData(book, 's', 2_000)).to.deep.equal([1]);
      expect(usableData(book, 's', 1_000 + 3_600_001)).to.equal(null);
      book = recordAttempts(book, { s: { ok: true, data: [2] } }, 3_000);
      expect(failingSources(book, ['s'])).to.deep.equal([]);
      expect(usableData(book, 's', 3_000)).to.deep.equal([2]);
    });
  });
});
