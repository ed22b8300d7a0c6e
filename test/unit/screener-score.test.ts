import { expect } from 'chai';
import fc from 'fast-check';
import { computeIndicators, MIN_BARS, type Bar } from '../../shared/screener/indicators.js';
import { buildSetup, LONG_AT, MAX_LEVERAGE, scoreSnapshot, SHORT_AT, WEIGHTS } from '../../shared/screener/score.js';
import { rowFor, runScreener } from '../../shared/screener/screener-runner.js';
import type { Candle } from '../../shared/market/types.js';

/** Bars around a close path: high and low half a unit either side. */
function bars(closes: readonly number[], halfRange = 0.5): Bar[] {
  return closes.map((close) => ({ high: close + halfRange, low: close - halfRange, close }));
}

/** Closed candles around a close path, one every `stepMs`. */
function candlesOf(closes: readonly number[], stepMs: number): Candle[] {
  return closes.map((close, i) => ({
    openTime: i * stepMs,
    open: close,
    high: close + 0.5,
    low: close - 0.5,
    close,
    volume: 1,
    closed: true,
  }));
}

const rising = Array.from({ length: 250 }, (_, i) => 100 + i);
const falling = Array.from({ length: 250 }, (_, i) => 400 - i);
const flat = Array.from({ length: 250 }, () => 100);

function score(closes: readonly number[], halfRange = 0.5) {
  const snapshot = computeIndicators(bars(closes, halfRange));
  if (!snapshot) throw new Error('no snapshot');
  return { snapshot, result: scoreSnapshot(snapshot) };
}

describe('screener scoring (pure)', () => {
  it('documents weights that add up to 100', () => {
    expect(Object.values(WEIGHTS).reduce((a, b) => a + b, 0)).to.equal(100);
  });

  it('scores a steadily rising series bullish, decisive, with a long setup', () => {
    const { snapshot, result } = score(rising);
    expect(result.verdict).to.equal('bullish');
    expect(result.decisive).to.equal(true);
    expect(result.score).to.be.at.least(LONG_AT);
    expect(result.trend).to.equal('up');
    expect(snapshot.ema200).to.not.equal(null);
    const setup = result.setup;
    expect(setup?.dir).to.equal('long');
    if (!setup) return;
    expect(setup.entry).to.equal(349);
    expect(setup.sl).to.be.below(setup.entry);
    expect([setup.entry, setup.tp1, setup.tp2, setup.tp3]).to.deep.equal(
      [...[setup.entry, setup.tp1, setup.tp2, setup.tp3]].sort((a, b) => a - b),
    );
  });

  it('scores a steadily falling series bearish, decisive, with a short setup', () => {
    const { result } = score(falling);
    expect(result.verdict).to.equal('bearish');
    expect(result.decisive).to.equal(true);
    expect(result.score).to.be.at.most(SHORT_AT);
    expect(result.trend).to.equal('down');
    expect(result.setup?.dir).to.equal('short');
    const s = result.setup;
    if (!s) return;
    expect(s.sl).to.be.above(s.entry);
    expect(s.tp1).to.be.below(s.entry);
    expect(s.tp2).to.be.below(s.tp1);
    expect(s.tp3).to.be.below(s.tp2);
  });

  it('scores a flat series 50: not decisive, no setup', () => {
    const { snapshot, result } = score(flat);
    expect(snapshot.rsi).to.equal(50);
    expect(result.score).to.equal(50);
    expect(result.decisive).to.equal(false);
    expect(result.setup).to.equal(null);
    expect(result.trend).to.equal('sideways');
  });

  it('also treats a perfectly flat series with no range as neutral', () => {
    const { result } = score(flat, 0);
    expect(result.score).to.equal(50);
    expect(result.setup).to.equal(null);
  });

  it('computes the setup by hand: entry 100, ATR 2 -> risk 3, targets 1R/2R/3R, leverage floor(50 / 3 %)', () => {
    expect(buildSetup('long', 100, 2)).to.deep.equal({ dir: 'long', entry: 100, sl: 97, tp1: 103, tp2: 106, tp3: 109, lev: 16 });
    expect(buildSetup('short', 100, 2)).to.deep.equal({ dir: 'short', entry: 100, sl: 103, tp1: 97, tp2: 94, tp3: 91, lev: 16 });
    // a tight stop is capped at 20x, a wide one floors at 1x
    expect(buildSetup('long', 100, 0.1)?.lev).to.equal(MAX_LEVERAGE);
    expect(buildSetup('long', 100, 30)?.lev).to.equal(1);
    // a short whose third target would be below zero has no setup
    expect(buildSetup('short', 100, 25)).to.equal(null);
  });

  it('needs MIN_BARS bars; without 200 bars EMA200 is left out but the series is still scored', () => {
    expect(computeIndicators(bars(rising.slice(0, MIN_BARS - 1)))).to.equal(null);
    const short = computeIndicators(bars(rising.slice(0, 120)));
    expect(short?.ema200).to.equal(null);
    expect(scoreSnapshot(short!).verdict).to.equal('bullish');
  });

  it('builds a row with rounded indicators', () => {
    const row = rowFor('BTCUSDT', candlesOf(rising, 3_600_000));
    expect(row).to.include({ symbol: 'BTCUSDT', price: 349, verdict: 'bullish', decisive: true, trend: 'up' });
    expect(row?.rsi).to.equal(100);
    expect(row?.setup?.dir).to.equal('long');
  });

  // steps in whole basis points: a step of a billionth leaves closes that differ by rounding alone, and RSI, a ratio
  // of gains to losses, is then a ratio of rounding noise that changes with the price scale
  const step = fc.integer({ min: -300, max: 300 }).map((bp) => bp / 10_000);
  const walk = fc.array(step, { minLength: MIN_BARS, maxLength: 260 }).map((steps) => {
    const closes: number[] = [];
    let p = 100;
    for (const s of steps) closes.push((p *= 1 + s));
    return closes;
  });

  it('always answers a score in 0..100, a verdict that follows it, and a setup exactly when decisive', () => {
    fc.assert(
      fc.property(walk, (closes) => {
        const snapshot = computeIndicators(bars(closes, 0.2));
        if (!snapshot) return;
        const r = scoreSnapshot(snapshot);
        expect(r.score).to.be.within(0, 100);
        expect(r.verdict).to.equal(r.score >= 50 ? 'bullish' : 'bearish');
        expect(r.decisive).to.equal(r.score >= LONG_AT || r.score <= SHORT_AT);
        if (r.setup) {
          expect(r.decisive).to.equal(true);
          expect(r.setup.dir).to.equal(r.score >= LONG_AT ? 'long' : 'short');
          expect(r.setup.lev).to.be.within(1, MAX_LEVERAGE);
          const sign = r.setup.dir === 'long' ? 1 : -1;
          expect(sign * (r.setup.tp1 - r.setup.entry)).to.be.greaterThan(0);
          expect(sign * (r.setup.entry - r.setup.sl)).to.be.greaterThan(0);
        } else if (r.decisive) {
          // decisive without a setup only when a short's targets would not be positive
          expect(r.setup).to.equal(null);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('mirrors: the reflected series scores 100 minus the score (within rounding)', () => {
    fc.assert(
      fc.property(walk, (closes) => {
        const top = Math.max(...closes) * 2;
        const up = computeIndicators(bars(closes, 0.2));
        const down = computeIndicators(
          bars(
            closes.map((c) => top - c),
            0.2,
          ),
        );
        if (!up || !down) return;
        expect(Math.abs(scoreSnapshot(up).score + scoreSnapshot(down).score - 100)).to.be.at.most(1);
      }),
      { numRuns: 100 },
    );
  });

  it('does not depend on the price scale (distances are in ATRs)', () => {
    fc.assert(
      fc.property(walk, fc.constantFrom(0.001, 7, 50_000), (closes, k) => {
        const a = computeIndicators(bars(closes, 0.2));
        const b = computeIndicators(
          bars(
            closes.map((c) => c * k),
            0.2 * k,
          ),
        );
        if (!a || !b) return;
        expect(Math.abs(scoreSnapshot(a).score - scoreSnapshot(b).score)).to.be.at.most(1);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a screener run', () => {
  const candles = candlesOf(rising, 60_000);
  const universe = Array.from({ length: 20 }, (_, i) => ({
    symbol: `S${i}USDT`,
    assetClass: 'crypto' as const,
    quoteVolume24h: 1e9,
    venues: [],
  }));

  it('stops fetching when its signal aborts (the worker stopping), and answers what it scored by then', async () => {
    const stop = new AbortController();
    const asked: string[] = [];
    const source = {
      symbols: () => Promise.resolve(universe),
      candles: ({ symbol }: { symbol: string }) => {
        asked.push(symbol);
        if (asked.length === 3) stop.abort();
        return Promise.resolve(candles);
      },
    };
    const result = await runScreener(source, { size: 20, intervalMinutes: 60, now: 0, concurrency: 1, signal: stop.signal });
    expect(asked).to.deep.equal(['S0USDT', 'S1USDT', 'S2USDT']);
    expect(result.rows.map((r) => r.symbol)).to.deep.equal(asked);
    const whole = await runScreener(source, { size: 20, intervalMinutes: 60, now: 0, concurrency: 1 });
    expect(whole.rows).to.have.length(20);
  });
});
