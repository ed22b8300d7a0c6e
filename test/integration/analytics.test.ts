// @three-masters: close facts and equity entries over several keys
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createDomain, type Domain } from '../../shared/domain.js';
import { encodeCandle } from '../../shared/market/candle-codec.js';
import type { Side } from '../../shared/engine/side.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { PLANS, type PlanId } from '../../shared/paper/plans.js';
import { computeClose } from '../../shared/engine/close-record.js';
import { closeWrite } from '../../shared/paper/positions/close-service.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { testPosition } from '../helpers/sweep.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Friday 20 November 2026, 00:00 UTC. */
const T0 = Date.UTC(2026, 10, 20);

interface Trade {
  symbol: string;
  side: Side;
  entry: number;
  exit: number;
  qty: number;
  opened: number;
  closed: number;
  over?: Partial<Position>;
}

/**
 * The read models the settlement writes (position-close.lua, book-reset.lua) and the service over
 * them, on constructed histories: positions opened and closed through the real scripts at chosen
 * times, fees at 0 so every figure is computed by hand below. A fixed clock stands for now.
 */
describe('analytics: equity curve and report over settled closes (real Redis)', () => {
  let redis: RedisClient;
  let conns: RedisClient[];
  let pods: [PositionStore, PositionStore];
  let now = T0;
  let domain: Domain;
  const ref: BookRef = { accountId: 'acctan', book: 'main' };
  const ctx = (plan: PlanId = 'pro'): KeyContext => ({
    keyId: 'k1',
    keyName: 'test',
    accountId: ref.accountId,
    email: 'a@example.org',
    book: ref.book,
    bookBound: false,
    plan: { limits: PLANS[plan], until: plan === 'free' ? null : now + 30 * DAY, daysLeft: null, source: plan === 'free' ? null : 'paid' },
  });

  beforeEach(async () => {
    redis = await freshRedis();
    conns = [createRedis(testRedisUrl()), createRedis(testRedisUrl())];
    pods = [new PositionStore(conns[0]), new PositionStore(conns[1])];
    domain = createDomain({ config: configWith({}), redis, clock: { now: () => now } });
  });
  afterEach(async () => {
    await closeRedis(redis, ...conns);
  });

  /** Opens the trade at its open time and settles all of it at its exit, at its close time; fee rate 0. */
  async function settle(t: Trade): Promise<Position> {
    const position = testPosition(ref, {
      symbol: t.symbol,
      side: t.side,
      entry: t.entry,
      qty: t.qty,
      margin: 100,
      leverage: 10,
      fee_rate_pct: 0,
      opened_ts: t.opened,
      ...t.over,
    });
    expect((await pods[0].open(ref, position, 1000)).kind).to.equal('opened');
    const read = (await pods[0].getOpen(ref, position.id))!;
    const settled = computeClose(read.position, t.exit, 100, 0, t.closed, 'manual');
    expect((await pods[0].close(closeWrite(ref, read, settled, null, 'position.closed'))).kind).to.equal('closed');
    return settled.closed;
  }

  /**
   * A: long ETH 10 @ 100 -> 103, opened T0+1h, closed T0+1h30: +30.00 (ROE 30%, held 30 min)
   * B: short ETH 10 @ 100 -> 101, T0+1d+2h -> +2h20: -10.00 (ROE -10%, held 20 min)
   * C: long BTC 0.02 @ 50000 -> 51000, T0+2d -> +10m: +20.00 (ROE 20%, held 10 min)
   */
  const HISTORY: Trade[] = [
    { symbol: 'ETHUSDT', side: 'long', entry: 100, exit: 103, qty: 10, opened: T0 + HOUR, closed: T0 + HOUR + 30 * MIN },
    {
      symbol: 'ETHUSDT',
      side: 'short',
      entry: 100,
      exit: 101,
      qty: 10,
      opened: T0 + DAY + 2 * HOUR,
      closed: T0 + DAY + 2 * HOUR + 20 * MIN,
    },
    { symbol: 'BTCUSDT', side: 'long', entry: 50_000, exit: 51_000, qty: 0.02, opened: T0 + 2 * DAY, closed: T0 + 2 * DAY + 10 * MIN },
  ];

  it('equity: one point per step from the running totals; closes per step; drawdown from the points', async () => {
    for (const trade of HISTORY) await settle(trade);
    now = T0 + 2 * DAY + 10 * MIN + 30_000;
    // end = the end of the current minute, T0+2d+11m; days 3 at 1440 min: 4 points, one a day back
    const body = await domain.trading.analytics.equity(ctx(), { days: 3, stepMin: 1440 });
    expect(body.points).to.deep.equal([
      { t: T0 - DAY + 11 * MIN, realized_pnl_usd: 0, equity_usd: 10_000, closes: 0 },
      { t: T0 + 11 * MIN, realized_pnl_usd: 0, equity_usd: 10_000, closes: 0 },
      { t: T0 + DAY + 11 * MIN, realized_pnl_usd: 30, equity_usd: 10_030, closes: 1 },
      { t: T0 + 2 * DAY + 11 * MIN, realized_pnl_usd: 40, equity_usd: 10_040, closes: 2 },
    ]);
    // the points never dip: 10000, 10000, 10030, 10040
    expect(body.max_drawdown_pct).to.equal(0);
    expect(body.now).to.equal(10_040);
    expect(body.ok).to.equal(true);
    // hourly over two days (T0+11m to T0+2d+11m, 49 points): B's fall shows, 10030 -> 10020 = 10 / 10030 = 0.0997%
    const hourly = await domain.trading.analytics.equity(ctx(), { days: 2, stepMin: 60 });
    expect(hourly.points).to.have.length(49);
    expect(hourly.max_drawdown_pct).to.equal(0.0997);
    expect(hourly.points.map((p) => p.closes).filter((n) => n > 0)).to.deep.equal([1, 1, 1]);
  });

  it('report: totals, breakdowns and findings computed by hand; the skill score says its n is too small', async () => {
    for (const trade of HISTORY) await settle(trade);
    now = T0 + 2 * DAY + 10 * MIN + 30_000;
    const report = await domain.trading.analytics.report(ctx('pro'), { days: 30 });
    // 3 closes, 2 wins; P&L 30 - 10 + 20 = 40 (0.4% of 10000); ROE (30 - 10 + 20) / 3 = 13.33;
    // profit factor 50 / 10 = 5; expectancy 40 / 3 = 13.33; hold (30 + 20 + 10) / 3 = 20 min; the curve's
    // 4-hour points (30 days) see 10030 after A, then 10020 after B: drawdown 10 / 10030 = 0.0997%
    expect(report.total).to.deep.equal({
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
      max_drawdown_pct: 0.0997,
      avg_hold_min: 20,
      liquidations: 0,
      fees_usd: 0,
      funding_usd: 0,
    });
    expect(report).to.include({ days: 30, plan: 'pro', breakdowns: true, premium: true });
    expect(report.locked).to.deep.equal([]);
    expect(report.byCoin).to.deep.equal({
      BTCUSDT: { closes: 1, wins: 1, win_rate_pct: 100, pnl_usd: 20, avg_pnl_usd: 20 },
      ETHUSDT: { closes: 2, wins: 1, win_rate_pct: 50, pnl_usd: 20, avg_pnl_usd: 10 },
    });
    expect(report.bySide).to.deep.equal({
      long: { closes: 2, wins: 2, win_rate_pct: 100, pnl_usd: 50, avg_pnl_usd: 25 },
      short: { closes: 1, wins: 0, win_rate_pct: 0, pnl_usd: -10, avg_pnl_usd: -10 },
    });
    // opened Friday 01:00, Saturday 02:00, Sunday 00:00 UTC; all at 10x
    expect(Object.keys(report.byHour!)).to.deep.equal(['0', '1', '2']);
    expect(Object.keys(report.byDay!)).to.deep.equal(['sun', 'fri', 'sat']);
    expect(report.byLev).to.deep.equal({ '6-10': { closes: 3, wins: 2, win_rate_pct: 66.67, pnl_usd: 40, avg_pnl_usd: 13.33 } });
    for (const finding of report.findings!) {
      expect(finding.n).to.be.at.most(3);
      expect(finding.conclusive).to.equal(false);
      expect(finding.text).to.contain('too few to conclude');
    }
    expect(report.findings!.find((f) => f.dimension === 'bySide' && f.group === 'short')!.n).to.equal(1);
    expect(report.skill).to.include({ score: null, n: 3, pnl_usd: 40 });
    expect(report.skill.note).to.contain('too few');

    const free = await domain.trading.analytics.report(ctx('free'), { days: 30 });
    expect(free).to.include({ breakdowns: false, premium: false, plan: 'free' });
    expect(free.locked).to.deep.equal(['byCoin', 'byLev', 'bySide', 'byHour', 'byDay', 'findings']);
    expect(free).to.not.have.any.keys('byCoin', 'findings');
    expect(free.total).to.deep.equal(report.total);
  });

  it('a reset restarts the curve at the reset and the report at its day', async () => {
    for (const trade of HISTORY) await settle(trade);
    now = T0 + 2 * DAY + 20 * MIN;
    // read first: the answers cached now must not outlive the reset and the close after it
    expect((await domain.trading.analytics.report(ctx(), { days: 30 })).total.closes).to.equal(3);
    expect((await domain.trading.analytics.equity(ctx(), { days: 1, stepMin: 60 })).points.at(-1)!.realized_pnl_usd).to.equal(40);
    expect((await domain.trading.books.reset(ctx(), true)).reset_ts).to.equal(now);
    const resetTs = now;
    // D: long ETH 10 @ 100 -> 101 after the reset: +10.00
    await settle({
      symbol: 'ETHUSDT',
      side: 'long',
      entry: 100,
      exit: 101,
      qty: 10,
      opened: T0 + 2 * DAY + 25 * MIN,
      closed: T0 + 2 * DAY + 30 * MIN,
    });
    now = T0 + 2 * DAY + 20 * MIN;
    expect((await domain.trading.analytics.report(ctx(), { days: 30 })).total.closes).to.equal(1);
    now = T0 + 2 * DAY + 40 * MIN;
    const body = await domain.trading.analytics.equity(ctx(), { days: 1, stepMin: 60 });
    // the grid ends at T0+2d+40m; T0+2d-20m and earlier fall before the reset and are dropped
    expect(body.points).to.deep.equal([
      { t: resetTs, realized_pnl_usd: 0, equity_usd: 10_000, closes: 0 },
      { t: T0 + 2 * DAY + 40 * MIN, realized_pnl_usd: 10, equity_usd: 10_010, closes: 1 },
    ]);
    const report = await domain.trading.analytics.report(ctx(), { days: 30 });
    expect(report.total).to.include({ closes: 1, wins: 1, pnl_usd: 10, best_trade_usd: 10, worst_trade_usd: 10 });
  });

  it('a close settled twice by a race is counted once in the curve and the day bucket', async () => {
    const position = testPosition(ref, {
      symbol: 'ETHUSDT',
      side: 'long',
      entry: 100,
      qty: 10,
      margin: 100,
      leverage: 10,
      fee_rate_pct: 0,
    });
    await pods[0].open(ref, position, 1000);
    const read = (await pods[0].getOpen(ref, position.id))!;
    const closedAt = T0 + 5 * MIN;
    const settled = computeClose(read.position, 110, 100, 0, closedAt, 'manual');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => pods[i % 2].close(closeWrite(ref, read, settled, null, 'position.closed'))),
    );
    expect(results.filter((r) => r.kind === 'closed')).to.have.length(1);
    expect(await redis.zrange(keys.bookEquityCurve(ref.accountId, ref.book), '0', '-1')).to.deep.equal([`${closedAt}:10000:1`]);
    const bucket = await redis.hgetall(keys.bookDayBucket(ref.accountId, ref.book, Math.floor(closedAt / DAY)));
    expect(bucket).to.include({ n: '1', w: '1', pnl: '10000', best: '10000', worst: '10000', 'c|ETHUSDT|n': '1' });
    now = T0 + 10 * MIN;
    const report = await domain.trading.analytics.report(ctx(), { days: 1 });
    expect(report.total).to.include({ closes: 1, pnl_usd: 100 });
  });

  it('a close settled late (an earlier minute than the newest entry) moves every later entry of the curve', async () => {
    await settle({ symbol: 'ETHUSDT', side: 'long', entry: 100, exit: 102, qty: 10, opened: T0, closed: T0 + 5 * MIN });
    await settle({ symbol: 'ETHUSDT', side: 'long', entry: 100, exit: 99, qty: 10, opened: T0, closed: T0 + 2 * MIN + 10_000 });
    // +20 at minute 5 and -10 at minute 2: minute 2 holds -10 after 1 close, minute 5 holds +10 after 2
    expect(await redis.zrange(keys.bookEquityCurve(ref.accountId, ref.book), '0', '-1')).to.deep.equal([
      `${T0 + 2 * MIN}:-1000:1`,
      `${T0 + 5 * MIN}:1000:2`,
    ]);
  });

  it('a replay row (src replay) never reaches the curve or the day buckets', async () => {
    await settle({
      symbol: 'ETHUSDT',
      side: 'long',
      entry: 100,
      exit: 102,
      qty: 10,
      opened: T0,
      closed: T0 + MIN,
      over: { src: 'replay' } as Partial<Position>,
    });
    expect(await redis.exists(keys.bookEquityCurve(ref.accountId, ref.book))).to.equal(0);
    expect(await redis.exists(keys.bookDayBucket(ref.accountId, ref.book, Math.floor(T0 / DAY)))).to.equal(0);
  });

  it('scores skill from 5 priced trades on: the same book, window and day draw the same score', async () => {
    // six hourly longs on ETH, each bought at 100 and sold at 104: the fills are the path (100, 104, 100, 104 ...)
    for (let i = 0; i < 6; i++) {
      await settle({
        symbol: 'ETHUSDT',
        side: 'long',
        entry: 100,
        exit: 104,
        qty: 10,
        opened: T0 + i * HOUR,
        closed: T0 + i * HOUR + 30 * MIN,
      });
    }
    now = T0 + 6 * HOUR;
    const first = (await domain.trading.analytics.report(ctx(), { days: 1 })).skill;
    expect(first).to.include({ n: 6, pnl_usd: 240, random_draws: 200 });
    expect(first.score).to.be.a('number').within(0, 100);
    // the book made +40 on each trade, the largest move the path holds: no random book does better
    expect(first.random_percentile).to.be.at.least(90);
    await redis.del(keys.bookReadCache(ref.accountId, ref.book, 'skill:1'), keys.bookReadCache(ref.accountId, ref.book, 'report:1:pro'));
    expect((await domain.trading.analytics.report(ctx(), { days: 1 })).skill).to.deep.equal(first);
  });

  it("prices the baselines from the stored 1-minute candles too: the hold ends at the window's last close", async () => {
    for (let i = 0; i < 6; i++) {
      await settle({
        symbol: 'ETHUSDT',
        side: 'long',
        entry: 100,
        exit: 104,
        qty: 10,
        opened: T0 + i * HOUR,
        closed: T0 + i * HOUR + 30 * MIN,
      });
    }
    const minute = T0 + 6 * HOUR - MIN;
    const candle = encodeCandle({
      symbol: 'ETHUSDT',
      venue: 'binance',
      openTime: minute,
      open: 190,
      high: 200,
      low: 190,
      close: 200,
      volume: 1,
      closed: true,
    });
    await redis.zadd(keys.marketCandles1m('ETHUSDT'), minute, candle);
    now = T0 + 6 * HOUR;
    // exposure: 6 trades x 1000 USD x 30 min / 6 h = 500 USD long; held from the first price (100 at T0) to the
    // candle's close (200 at T0+6h): +500 with the trades, -500 against (fees 0); without the candle it would end at 104
    const skill = (await domain.trading.analytics.report(ctx(), { days: 1 })).skill;
    expect(skill).to.include({ n: 6, hold_with_usd: 500, hold_against_usd: -500, hold_percentile: 50 });
  });

  it('refuses a report deeper than the plan with its limit', async () => {
    const refused = await domain.trading.analytics.report(ctx('free'), { days: 31 }).catch((e: unknown) => e);
    expect(refused).to.include({ code: 'days_beyond_plan', status: 400 });
    expect((refused as { details: unknown }).details).to.deep.equal({ max_days: 30, plan: 'free' });
    const paid = await domain.trading.analytics.report(ctx('business'), { days: 91 }).catch((e: unknown) => e);
    expect((paid as { details: unknown }).details).to.deep.equal({ max_days: 90, plan: 'business' });
  });
});
