import { expect } from 'chai';
import { HISTORY_MINUTES, MarketModel, MINUTE, VENUE_IDS } from '../../ops/sim/market-model.js';
import { MAX_SYMBOLS, TRADFI } from '../../ops/sim/symbols.js';

/** The market model alone, driven by a fake clock (minute rollovers without waiting a minute). */
describe('simulated market model', () => {
  const T0 = Date.UTC(2025, 0, 15, 12, 30, 10);
  let clock = T0;
  const now = (): number => clock;
  beforeEach(() => {
    clock = T0;
  });

  it('backfills contiguous history that ends at the starting price', () => {
    const m = new MarketModel({ now, seed: 3, mode: 'scripted' });
    expect(m.symbols).to.have.length(60 + TRADFI.length);
    for (const spec of m.symbols) {
      const all = m.range(spec.symbol, 'binance', { limit: 5000, anchor: 'end' });
      expect(all).to.have.length(HISTORY_MINUTES + 1);
      const broken = all.slice(1).filter((c, i) => {
        const prev = all[i];
        return (
          c.t - prev.t !== MINUTE || c.o !== prev.c || prev.h < Math.max(prev.o, prev.c) || prev.l > Math.min(prev.o, prev.c) || prev.l <= 0
        );
      });
      expect(broken, spec.symbol).to.deep.equal([]);
      expect(all[all.length - 1].c).to.equal(m.basePrice(spec.symbol));
      expect(all[all.length - 1].t).to.equal(Math.floor(T0 / MINUTE) * MINUTE);
    }
  });

  it('closes the current candle at the minute boundary and opens the next at its close', () => {
    const m = new MarketModel({ now, seed: 3, mode: 'random', tickMs: 500 });
    for (let i = 0; i < 20; i++) m.step();
    const before = m.currentCandle('BTCUSDT', 'binance');
    expect(m.advance()).to.deep.equal([]);
    clock += MINUTE;
    const closed = m.advance();
    expect(closed).to.have.length(60 + TRADFI.length);
    const btc = closed.find((c) => c.symbol === 'BTCUSDT');
    expect(btc?.candle.t).to.equal(before.t);
    const next = m.currentCandle('BTCUSDT', 'binance');
    expect(next.t).to.equal(before.t + MINUTE);
    expect(next.o).to.equal(btc?.candle.c);
    clock += 3 * MINUTE;
    expect(
      m
        .advance()
        .filter((c) => c.symbol === 'BTCUSDT')
        .map((c) => c.candle.t),
    ).to.deep.equal([1, 2, 3].map((k) => before.t + k * MINUTE));
  });

  it('is reproducible for a given seed', () => {
    const a = new MarketModel({ now, seed: 11 });
    const b = new MarketModel({ now, seed: 11 });
    for (let i = 0; i < 10; i++) {
      a.step();
      b.step();
    }
    expect(a.quote('ETHUSDT', 'okx')).to.deep.equal(b.quote('ETHUSDT', 'okx'));
  });

  it('scripted mode moves prices only when told, identically on every venue', () => {
    const m = new MarketModel({ now, seed: 5, mode: 'scripted' });
    const p = m.basePrice('SOLUSDT');
    for (let i = 0; i < 10; i++) m.step();
    expect(m.basePrice('SOLUSDT')).to.equal(p);
    m.setPrice('SOLUSDT', 150.5);
    for (const v of VENUE_IDS) expect(m.price('SOLUSDT', v)).to.equal(150.5);
    const c = m.currentCandle('SOLUSDT', 'bitget');
    expect(c.c).to.equal(150.5);
    expect(c.h).to.be.at.least(150.5);
  });

  it('random mode leaves a frozen TradFi price where it is (its venues publish it unchanged) until it is let go', () => {
    const m = new MarketModel({ now, seed: 3, mode: 'random', tickMs: 500 });
    m.setMarketFrozen('XAUUSDT', true);
    const [gold, btc] = [m.basePrice('XAUUSDT'), m.basePrice('BTCUSDT')];
    const venues = VENUE_IDS.map((v) => m.price('XAUUSDT', v));
    for (let i = 0; i < 20; i++) m.step();
    expect(VENUE_IDS.map((v) => m.price('XAUUSDT', v))).to.deep.equal(venues);
    expect(m.basePrice('XAUUSDT')).to.equal(gold);
    expect(m.basePrice('BTCUSDT')).to.not.equal(btc);
    m.setMarketFrozen('XAUUSDT', false);
    for (let i = 0; i < 20; i++) m.step();
    expect(m.basePrice('XAUUSDT')).to.not.equal(gold);
  });

  it('keeps 24h stats consistent with the candles', () => {
    const m = new MarketModel({ now, seed: 8, mode: 'random' });
    for (let i = 0; i < 5; i++) m.step();
    const q = m.quote('BTCUSDT', 'binance');
    const day = m.range('BTCUSDT', 'binance', { limit: 1440, anchor: 'end' });
    expect(q.open24h).to.equal(day[0].o);
    expect(q.high24h).to.equal(Math.max(...day.map((c) => c.h)));
    expect(q.low24h).to.equal(Math.min(...day.map((c) => c.l)));
    expect(q.quoteVolume24h).to.be.closeTo(
      day.reduce((s, c) => s + c.q, 0),
      1,
    );
    expect(q.changePct).to.be.closeTo(((q.last - q.open24h) / q.open24h) * 100, 1e-9);
    expect(q.quoteVolume24h).to.be.within(0.7e10, 2.5e10);
  });

  it('rewrites past and current candles, refusing future or forgotten minutes', () => {
    const m = new MarketModel({ now, seed: 2, mode: 'scripted' });
    const cur = m.currentCandle('ETHUSDT', 'binance').t;
    const input = { o: 3000, h: 3100, l: 2900, c: 3050, v: 5 };
    const past = m.setCandle('ETHUSDT', cur - 10 * MINUTE, input);
    expect(past.ok && past.kind).to.equal('past');
    const [row] = m.range('ETHUSDT', 'okx', { from: cur - 10 * MINUTE, to: cur - 10 * MINUTE, limit: 1, anchor: 'start' });
    expect([row.o, row.h, row.l, row.c]).to.deep.equal([3000, 3100, 2900, 3050]);
    const now1 = m.setCandle('ETHUSDT', cur, input);
    expect(now1.ok && now1.kind).to.equal('current');
    expect(m.basePrice('ETHUSDT')).to.equal(3050);
    expect(m.setCandle('ETHUSDT', cur + MINUTE, input)).to.deep.equal({ ok: false, error: 'minute is in the future' });
    expect(m.setCandle('ETHUSDT', cur - 5000 * MINUTE, input).ok).to.equal(false);
  });

  it('selects candle ranges from either end', () => {
    const m = new MarketModel({ now, seed: 2 });
    const cur = m.currentCandle('BTCUSDT', 'binance').t;
    const fromStart = m.range('BTCUSDT', 'binance', { from: cur - 100 * MINUTE, limit: 3, anchor: 'start' });
    expect(fromStart.map((c) => c.t)).to.deep.equal([100, 99, 98].map((k) => cur - k * MINUTE));
    const fromEnd = m.range('BTCUSDT', 'binance', { to: cur - MINUTE, limit: 2, anchor: 'end' });
    expect(fromEnd.map((c) => c.t)).to.deep.equal([cur - 2 * MINUTE, cur - MINUTE]);
    expect(m.range('BTCUSDT', 'binance', { from: cur + MINUTE, limit: 5, anchor: 'start' })).to.deep.equal([]);
  });

  it('lists between 50 and all known coins, the required eight first, then the TradFi perpetuals', () => {
    expect(new MarketModel({ now, symbolCount: 10 }).symbols).to.have.length(50 + TRADFI.length);
    expect(new MarketModel({ now, symbolCount: 1000 }).symbols).to.have.length(MAX_SYMBOLS + TRADFI.length);
    const m = new MarketModel({ now });
    expect(m.symbols.slice(0, 8).map((s) => s.base)).to.deep.equal(['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'ADA', 'AVAX']);
    expect(m.symbols.slice(-TRADFI.length).map((s) => s.symbol)).to.include.members(['XAUUSDT', 'EURUSDT']);
    const vols = m.symbols.slice(0, -TRADFI.length).map((s) => s.quoteVolume24h);
    for (let i = 1; i < vols.length; i++) expect(vols[i]).to.be.below(vols[i - 1]);
    expect(m.resolve('btc')).to.equal('BTCUSDT');
    expect(m.resolve('ETH-USDT-SWAP')).to.equal('ETHUSDT');
    expect(m.resolve('NOPE')).to.equal(undefined);
  });
});
