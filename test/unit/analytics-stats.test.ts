import { expect } from 'chai';
import fc from 'fast-check';
import { closeIncrements, dayIndex, DAY_MS, leverageBand, type CloseFacts } from '../../shared/engine/analytics/close-facts.js';
import { equityGrid, equityPoints, maxDrawdownPct, type RunningTotal } from '../../shared/engine/analytics/equity-curve.js';
import { reportBreakdowns, reportTotals, sumBuckets, type DayBucket } from '../../shared/engine/analytics/report-stats.js';
import {
  holdBaselines,
  percentileOf,
  priceAt,
  seededRandom,
  skillScore,
  type PricePoint,
  type SkillTrade,
} from '../../shared/engine/analytics/skill.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 10, 20);

/** The day buckets a list of closes makes (what position-close.lua's HINCRBYs and best/worst leave). */
function bucketsOf(closes: readonly CloseFacts[]): DayBucket[] {
  const byDay = new Map<number, Record<string, number>>();
  for (const facts of closes) {
    const day = dayIndex(facts.closed_ts);
    const bucket = byDay.get(day) ?? {};
    byDay.set(day, bucket);
    for (const [field, inc] of closeIncrements(facts)) bucket[field] = (bucket[field] ?? 0) + inc;
    bucket.best = Math.max(bucket.best ?? -Infinity, facts.cents);
    bucket.worst = Math.min(bucket.worst ?? Infinity, facts.cents);
  }
  return [...byDay.values()];
}

const facts = (over: Partial<CloseFacts>): CloseFacts => ({
  symbol: 'ETHUSDT',
  side: 'long',
  leverage: 10,
  margin: 100,
  opened_ts: T0,
  closed_ts: T0 + 10 * MIN,
  cents: 0,
  roe_pct: 0,
  fees_usd: 0,
  funding_usd: 0,
  liquidated: false,
  ...over,
});

const closeArb = fc
  .record({
    cents: fc.integer({ min: -10_000_000, max: 10_000_000 }),
    opened: fc.integer({ min: 0, max: 30 * 24 * 60 }),
    held: fc.integer({ min: 0, max: 3 * 24 * 60 }),
    symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT', 'SOLUSDT'),
    side: fc.constantFrom('long' as const, 'short' as const),
    leverage: fc.integer({ min: 1, max: 1000 }),
    liquidated: fc.boolean(),
  })
  .map((r) =>
    facts({
      cents: r.cents,
      opened_ts: T0 + r.opened * MIN,
      closed_ts: T0 + (r.opened + r.held) * MIN,
      symbol: r.symbol,
      side: r.side,
      leverage: r.leverage,
      roe_pct: r.cents / 100,
      liquidated: r.liquidated,
    }),
  );

describe('analytics statistics (pure)', () => {
  describe('max drawdown', () => {
    it('worked example: 10000, 11000, 9900, 10500, 8800 -> the peak 11000 falls to 8800, 20%', () => {
      expect(maxDrawdownPct([10_000, 11_000, 9_900, 10_500, 8_800])).to.equal(20);
      expect(maxDrawdownPct([])).to.equal(0);
    });

    it('is 0 on a curve that never falls, within 0..100 otherwise, and the same for the curve scaled', () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: 1e9 }), { maxLength: 50 }), fc.integer({ min: 1, max: 1000 }), (equities, k) => {
          const dd = maxDrawdownPct(equities);
          expect(dd).to.be.within(0, 100);
          expect(maxDrawdownPct([...equities].sort((a, b) => a - b))).to.equal(0);
          expect(maxDrawdownPct(equities.map((e) => e * k))).to.be.closeTo(dd, 1e-9);
        }),
      );
    });
  });

  describe('equity points', () => {
    it('worked example: 10:07:30, 1 day at 60 min -> 25 points from 10:08 the day before to 10:08', () => {
      const now = T0 + 10 * HOUR + 7 * MIN + 30_000;
      const grid = equityGrid(now, 1, 60);
      expect(grid).to.deep.equal({ first: T0 + 10 * HOUR + 8 * MIN - 24 * HOUR, stepMs: HOUR, count: 25 });
    });

    it('closes per point add up to the closes of the window, and each point is start + realized', () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 3, maxLength: 40 }), (moves) => {
          const grid = { first: T0, stepMs: HOUR, count: moves.length - 1 };
          let cents = 0;
          const samples: RunningTotal[] = moves.map((m, i) => ({ cents: (cents += m), closes: i * 2 }));
          const points = equityPoints({ grid, samples, startingBalanceUsd: 10_000, resetTs: 0 });
          expect(points).to.have.length(grid.count);
          expect(points.reduce((sum, p) => sum + p.closes, 0)).to.equal(samples[samples.length - 1].closes - samples[0].closes);
          for (const p of points) expect(p.equity_usd).to.be.closeTo(10_000 + p.realized_pnl_usd, 1e-9);
        }),
      );
    });

    it('restarts at a reset inside the window: a point at the reset, none before it', () => {
      const grid = { first: T0, stepMs: HOUR, count: 4 };
      const samples: RunningTotal[] = [0, 1, 2, 3, 4].map((i) => ({ cents: i * 100, closes: i }));
      const points = equityPoints({ grid, samples, startingBalanceUsd: 5_000, resetTs: T0 + HOUR + 1 });
      expect(points).to.deep.equal([
        { t: T0 + HOUR + 1, realized_pnl_usd: 0, equity_usd: 5_000, closes: 0 },
        { t: T0 + 2 * HOUR, realized_pnl_usd: 3, equity_usd: 5_003, closes: 3 },
        { t: T0 + 3 * HOUR, realized_pnl_usd: 4, equity_usd: 5_004, closes: 1 },
      ]);
    });
  });

  describe('report totals and breakdowns from day buckets', () => {
    it('worked example: +30, -10, +20 (ROE 30, -10, 20; held 10, 20, 30 min) on 10000', () => {
      const closes = [
        facts({ cents: 3000, roe_pct: 30, closed_ts: T0 + 10 * MIN }),
        facts({ cents: -1000, roe_pct: -10, closed_ts: T0 + 20 * MIN, side: 'short', leverage: 50 }),
        facts({ cents: 2000, roe_pct: 20, closed_ts: T0 + 30 * MIN, fees_usd: 1.1, funding_usd: -0.25, liquidated: true }),
      ];
      const sum = sumBuckets(bucketsOf(closes));
      expect(reportTotals(sum, 10_000, 1.5)).to.deep.equal({
        n: 3,
        closes: 3,
        wins: 2,
        losses: 1,
        win_rate_pct: 66.67,
        pnl_usd: 40,
        return_pct: 0.4,
        avg_roe_pct: 13.33,
        best_trade_usd: 30,
        worst_trade_usd: -10,
        profit_factor: 5,
        expectancy_usd: 13.33,
        max_drawdown_pct: 1.5,
        avg_hold_min: 20,
        liquidations: 1,
        fees_usd: 1.1,
        funding_usd: -0.25,
      });
      const breakdowns = reportBreakdowns(sum);
      expect(breakdowns.byLev).to.deep.equal({
        '6-10': { closes: 2, wins: 2, win_rate_pct: 100, pnl_usd: 50, avg_pnl_usd: 25 },
        '26-50': { closes: 1, wins: 0, win_rate_pct: 0, pnl_usd: -10, avg_pnl_usd: -10 },
      });
    });

    it('an empty window: zeros and nulls, never a division by zero', () => {
      expect(reportTotals(sumBuckets([]), 10_000, 0)).to.include({
        closes: 0,
        win_rate_pct: null,
        avg_roe_pct: null,
        profit_factor: null,
        expectancy_usd: null,
        best_trade_usd: null,
      });
    });

    it('property: the totals are those of the closes themselves, however they fall into days', () => {
      fc.assert(
        fc.property(fc.array(closeArb, { minLength: 1, maxLength: 60 }), (closes) => {
          const totals = reportTotals(sumBuckets(bucketsOf(closes)), 10_000, 0);
          const cents = closes.map((c) => c.cents);
          expect(totals.closes).to.equal(closes.length);
          expect(totals.wins + totals.losses).to.equal(closes.length);
          expect(totals.wins).to.equal(cents.filter((c) => c > 0).length);
          expect(Math.round(totals.pnl_usd * 100)).to.equal(cents.reduce((a, b) => a + b, 0));
          expect(Math.round(totals.best_trade_usd! * 100)).to.equal(Math.max(...cents));
          expect(Math.round(totals.worst_trade_usd! * 100)).to.equal(Math.min(...cents));
          expect(totals.liquidations).to.equal(closes.filter((c) => c.liquidated).length);
          const breakdowns = reportBreakdowns(sumBuckets(bucketsOf(closes)));
          for (const groups of Object.values(breakdowns)) {
            expect(Object.values(groups).reduce((n, g) => n + g.closes, 0)).to.equal(closes.length);
          }
        }),
      );
    });

    it('leverage bands cover every leverage once', () => {
      expect([1, 5, 6, 10, 25, 26, 50, 100, 101, 1000].map(leverageBand)).to.deep.equal([
        '1-5',
        '1-5',
        '6-10',
        '6-10',
        '11-25',
        '26-50',
        '26-50',
        '51-100',
        '101+',
        '101+',
      ]);
    });
  });

  describe('skill score', () => {
    it('percentile worked example: 5 among [1, 5, 7, 9] -> (1 + 0.5) / 4 = 37.5; never outside 0..100', () => {
      expect(percentileOf(5, [1, 5, 7, 9])).to.equal(37.5);
      fc.assert(
        fc.property(fc.double({ noNaN: true }), fc.array(fc.double({ noNaN: true }), { minLength: 1 }), (v, others) => {
          const pct = percentileOf(v, others);
          expect(pct).to.be.within(0, 100);
          expect(percentileOf(v + 1, others)).to.be.at.least(pct - 1e-9);
        }),
      );
    });

    it('prices between points are linear; outside the path there is none', () => {
      const path: PricePoint[] = [
        { t: 0, price: 100 },
        { t: 10, price: 110 },
        { t: 20, price: 90 },
      ];
      expect(priceAt(path, 5)).to.equal(105);
      expect(priceAt(path, 15)).to.equal(100);
      expect(priceAt(path, 20)).to.equal(90);
      expect(priceAt(path, 21)).to.equal(null);
    });

    it('hold worked example: 400 USD of net long exposure over a 10% rise, +40 with the trades, -40 against (fees 0)', () => {
      const day = DAY_MS;
      const trades: SkillTrade[] = [
        { symbol: 'X', side: 'long', margin: 100, leverage: 10, fee_rate_pct: 0, opened_ts: 0, closed_ts: 5 * day, pnl_usd: 0 },
        { symbol: 'X', side: 'short', margin: 100, leverage: 10, fee_rate_pct: 0, opened_ts: 0, closed_ts: day, pnl_usd: 0 },
      ];
      const paths = new Map([
        [
          'X',
          [
            { t: 0, price: 100 },
            { t: 10 * day, price: 110 },
          ],
        ],
      ]);
      const hold = holdBaselines(trades, paths, 0, 10 * day);
      expect(hold.with).to.be.closeTo(40, 1e-9);
      expect(hold.against).to.be.closeTo(-40, 1e-9);
    });

    /** A zig-zag market: 100 and 120 in turns, an hour each way; trades of one hour, 1000 USD notional, no fees. */
    const zigzag: PricePoint[] = Array.from({ length: 49 }, (_, i) => ({ t: T0 + i * HOUR, price: i % 2 === 0 ? 100 : 120 }));
    const hourTrades = (foresight: boolean): SkillTrade[] =>
      Array.from({ length: 20 }, (_, i) => {
        const rising = i % 2 === 0;
        const side = rising === foresight ? 'long' : 'short';
        const pnl = (foresight ? 1 : -1) * 1000 * 0.2;
        return {
          symbol: 'X',
          side,
          margin: 100,
          leverage: 10,
          fee_rate_pct: 0,
          opened_ts: T0 + i * HOUR,
          closed_ts: T0 + (i + 1) * HOUR,
          pnl_usd: pnl,
        };
      });

    it('scores a book that always caught the move near 100 and one that always missed it near 0; the same seed draws the same books', () => {
      const input = (foresight: boolean) => ({
        trades: hourTrades(foresight),
        paths: new Map([['X', zigzag]]),
        from: T0,
        to: T0 + 48 * HOUR,
        draws: 200,
        seed: 'book|30|1',
      });
      const good = skillScore(input(true));
      const bad = skillScore(input(false));
      expect(good.n).to.equal(20);
      expect(good.score).to.be.at.least(95);
      expect(bad.score).to.be.at.most(5);
      expect(skillScore(input(true))).to.deep.equal(good);
      expect(good.random_percentile).to.equal(100);
    });

    it('says too few instead of scoring under 5 priced trades, and counts only trades with prices', () => {
      const trades = hourTrades(true).slice(0, 6);
      const onlyFour = [...trades.slice(0, 4), ...trades.slice(4).map((t) => ({ ...t, symbol: 'UNPRICED' }))];
      const skill = skillScore({ trades: onlyFour, paths: new Map([['X', zigzag]]), from: T0, to: T0 + 48 * HOUR, draws: 50, seed: 's' });
      expect(skill).to.include({ score: null, n: 4 });
      expect(skill.note).to.contain('too few');
    });

    it('property: the score is a whole number in 0..100 for any book and seed', () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.tuple(
              fc.integer({ min: 0, max: 40 }),
              fc.integer({ min: 1, max: 8 }),
              fc.boolean(),
              fc.double({ min: -500, max: 500, noNaN: true }),
            ),
            {
              minLength: 5,
              maxLength: 30,
            },
          ),
          fc.string(),
          (rows, seed) => {
            const trades: SkillTrade[] = rows.map(([start, hours, long, pnl]) => ({
              symbol: 'X',
              side: long ? 'long' : 'short',
              margin: 50,
              leverage: 20,
              fee_rate_pct: 0.055,
              opened_ts: T0 + start * HOUR,
              closed_ts: T0 + (start + hours) * HOUR,
              pnl_usd: pnl,
            }));
            const skill = skillScore({ trades, paths: new Map([['X', zigzag]]), from: T0, to: T0 + 48 * HOUR, draws: 30, seed });
            expect(Number.isInteger(skill.score)).to.equal(true);
            expect(skill.score).to.be.within(0, 100);
          },
        ),
        { numRuns: 50 },
      );
    });

    it('the seeded generator is uniform enough: the mean of 10000 draws is near 0.5', () => {
      const random = seededRandom(42);
      let sum = 0;
      for (let i = 0; i < 10_000; i++) sum += random();
      expect(sum / 10_000).to.be.closeTo(0.5, 0.02);
    });
  });
});
