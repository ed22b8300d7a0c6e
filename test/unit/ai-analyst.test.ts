import { expect } from 'chai';
import fc from 'fast-check';
import type { Brief, BriefEvent } from '../../shared/ai/brief.js';
import { answerFromRules, biasOf, focusOf, scoreBrief } from '../../shared/ai/built-in-analyst.js';

const NOW = Date.UTC(2026, 10, 26, 12);

function event(inHours: number, impact: number): BriefEvent {
  const ts = NOW + inHours * 3_600_000;
  return { ts, iso: new Date(ts).toISOString(), type: 'cpi', title: 'US CPI', impact, in_hours: inHours };
}

/** A brief with neutral positioning and flow, no macro event; `over` replaces parts. */
function brief(
  over: { score?: number; rsi?: number; atr?: number; price?: number; funding?: number | null; longPct?: number | null } = {},
  extra: Partial<Brief> = {},
): Brief {
  const price = over.price ?? 65000;
  const atr = over.atr ?? 420;
  return {
    symbol: 'BTCUSDT',
    interval_minutes: 60,
    generated_at: NOW,
    price: { price, change_24h_pct: 1.2, stale: false },
    indicators: {
      timeframe: '1h',
      source: 'candles',
      score: over.score ?? 78,
      rsi: over.rsi ?? 62,
      macd: { macd: 120, signal: 100, histogram: 20 },
      atr,
      atr_pct: (atr / price) * 100,
      trend: 'up',
      ema: { ema20: price - 200, ema50: price - 500, ema200: price - 2000 },
    },
    derivatives: {
      funding_rate_pct: over.funding === undefined ? 0.01 : over.funding,
      next_funding_time: NOW + 3_600_000,
      open_interest_usd: 9e9,
      long_pct: over.longPct === undefined ? 50 : over.longPct,
      short_pct: over.longPct === undefined || over.longPct === null ? 50 : 100 - over.longPct,
    },
    liquidations: { window_minutes: 60, long_usd: 0, short_usd: 0, clusters: [] },
    macro: { next_events: [] },
    missing: [],
    ...extra,
  };
}

const ask = (b: Brief, question = 'Long here?', lang: 'en' | 'es' | 'pt' = 'en') => answerFromRules({ brief: b, question, lang });

describe('the built-in /ai analyst: written rules over the brief', () => {
  it('plans a long from a strong chart: the screener setup rule, worked by hand', () => {
    // score 78 -> T +2; funding 0.01% and 50% longs -> P 0; no liquidations -> F 0; total +2 with T >= 1: long.
    // R = 1.5 x ATR 420 = 630: stop 65000 - 630 = 64370; targets 65630, 66260, 66890;
    // leverage: the stop is 630 / 65000 = 0.969% away, 50 / 0.969 = 51.6 -> capped at 20.
    const a = ask(brief());
    expect(a.bias).to.equal('long');
    expect(a.plan).to.deep.equal({ bias: 'long', entry: 65000, stop: 64370, targets: [65630, 66260, 66890], leverage: 20 });
    expect(a.reasons).to.deep.equal(['technicals_bullish']);
    expect(a.answer.split('\n')[0]).to.equal('BTCUSDT 1h: bias long (rule points +2 = +2 / +0 / +0: technicals / positioning / flow).');
    expect(a.answer).to.include('Plan: long at 65000, stop 64370, targets 65630 / 66260 / 66890 (1R/2R/3R), leverage up to 20x.');
  });

  it('plans a short with the stop above: score 25, longs flushed', () => {
    // T -2, F -1 (longs liquidated 300k >= 2 x 100k): total -3; stop 3500 + 1.5 x 40 = 3560; targets 3440, 3380, 3320
    const b = brief({ score: 25, rsi: 38, atr: 40, price: 3500 }, {});
    b.liquidations = { window_minutes: 60, long_usd: 300_000, short_usd: 100_000, clusters: [] };
    const a = ask(b, 'short?');
    expect(a.bias).to.equal('short');
    expect(a.plan).to.deep.equal({ bias: 'short', entry: 3500, stop: 3560, targets: [3440, 3380, 3320], leverage: 20 });
    expect(a.reasons).to.deep.equal(['technicals_bearish', 'longs_flushed']);
  });

  it('lets crowded positioning cancel a mild chart: score 65, funding 0.05%, 70% longs -> neutral, no plan', () => {
    // T +1, P -1 -1: total -1
    const a = ask(brief({ score: 65, funding: 0.05, longPct: 70 }));
    expect(scoreBrief(brief({ score: 65, funding: 0.05, longPct: 70 }))).to.include({ technicals: 1, positioning: -2, flow: 0, total: -1 });
    expect([a.bias, a.plan]).to.deep.equal(['neutral', null]);
    expect(a.reasons).to.deep.equal(['technicals_bullish', 'funding_longs_pay', 'crowded_long']);
    expect(a.answer).to.include('No setup: the rules do not agree on a direction.');
  });

  it('never takes a bias from positioning and flow alone against a flat chart', () => {
    // score 50 -> T 0; funding -0.05% +1, 30% longs +1, shorts squeezed +1: total +3, but T = 0
    const b = brief({ score: 50, funding: -0.05, longPct: 30 });
    b.liquidations = { window_minutes: 60, long_usd: 0, short_usd: 50_000, clusters: [] };
    const score = scoreBrief(b);
    expect(score).to.include({ technicals: 0, positioning: 2, flow: 1, total: 3 });
    expect(biasOf(score)).to.equal('neutral');
  });

  it('withholds the plan when RSI is stretched in the bias direction, or a high-impact event is under 24 h away', () => {
    const stretched = ask(brief({ rsi: 80 }));
    expect([stretched.bias, stretched.plan]).to.deep.equal(['long', null]);
    expect(stretched.reasons).to.include('no_plan_stretched');
    expect(ask(brief({}, { macro: { next_events: [event(5, 3)] } })).plan).to.equal(null);
    expect(ask(brief({}, { macro: { next_events: [event(5, 3)] } })).reasons).to.include('no_plan_macro');
    // a high-impact event 30 h away, or a medium one in 5 h, does not
    expect(ask(brief({}, { macro: { next_events: [event(30, 3)] } })).plan).to.not.equal(null);
    expect(ask(brief({}, { macro: { next_events: [event(5, 2)] } })).plan).to.not.equal(null);
  });

  it('says what it lacks: no indicators, no derivatives', () => {
    const a = ask(brief({ funding: null, longPct: null }, { indicators: null }));
    expect([a.bias, a.plan]).to.deep.equal(['neutral', null]);
    expect(a.answer).to.include('No indicators');
  });

  it('answers in Spanish and Portuguese, and puts what the question asks about first', () => {
    expect(ask(brief(), 'conviene?', 'es').answer)
      .to.match(/^BTCUSDT 1h: sesgo alcista \(long\)/)
      .and.include('Plan: long en 65000');
    expect(ask(brief(), 'vale?', 'pt').answer)
      .to.match(/^BTCUSDT 1h: viés de alta \(long\)/)
      .and.include('Plano: long em 65000');
    expect(focusOf('what does funding say?')).to.equal('funding');
    expect(ask(brief(), 'what does funding say?').answer.split('\n')[1]).to.match(/^Funding per interval \+0\.0100%/);
    expect(ask(brief(), 'where is the stop?').answer.split('\n')[1]).to.match(/^Plan: /);
  });

  it('holds its rules for any brief: deterministic, a plan only with a bias, stop and targets on their sides', () => {
    const arbitraryBrief = fc
      .record({
        score: fc.integer({ min: 0, max: 100 }),
        rsi: fc.double({ min: 0, max: 100, noNaN: true }),
        atr: fc.double({ min: 1e-6, max: 1e4, noNaN: true }),
        price: fc.double({ min: 1e-4, max: 1e6, noNaN: true }),
        funding: fc.option(fc.double({ min: -1, max: 1, noNaN: true })),
        longPct: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
        longUsd: fc.double({ min: 0, max: 1e9, noNaN: true }),
        shortUsd: fc.double({ min: 0, max: 1e9, noNaN: true }),
        events: fc.array(fc.tuple(fc.double({ min: 0, max: 168, noNaN: true }), fc.integer({ min: 1, max: 3 })), { maxLength: 3 }),
      })
      .map((r) => {
        const b = brief(r, { macro: { next_events: r.events.map(([h, impact]) => event(h, impact)) } });
        b.liquidations = { window_minutes: 60, long_usd: r.longUsd, short_usd: r.shortUsd, clusters: [] };
        return b;
      });
    fc.assert(
      fc.property(arbitraryBrief, fc.string({ maxLength: 80 }), (b, question) => {
        const a = ask(b, question);
        expect(ask(b, question)).to.deep.equal(a);
        if (a.bias === 'neutral') expect(a.plan).to.equal(null);
        const guarded = b.macro.next_events.some((e) => e.impact === 3 && e.in_hours < 24);
        if (guarded) expect(a.plan).to.equal(null);
        if (a.plan) {
          const sign = a.plan.bias === 'long' ? 1 : -1;
          expect(a.plan.bias).to.equal(a.bias);
          expect(sign * (a.plan.entry - a.plan.stop)).to.be.above(0);
          expect(
            a.plan.targets.map((t) => sign * (t - a.plan!.entry)).every((d, i, all) => d > 0 && (i === 0 || d >= all[i - 1])),
          ).to.equal(true);
          expect(a.plan.leverage).to.be.within(1, 20);
        }
      }),
    );
  });
});
