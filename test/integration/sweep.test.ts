// @three-masters: the sweep's scripts and BullMQ jobs
import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { systemClock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { MarketWriter } from '../../shared/market/market-writer.js';
import { computeClose } from '../../shared/engine/close-record.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import { SWEEP_JOB_OPTIONS, sweepJobId, type SweepJob } from '../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { createSweepProducer } from '../../shared/queues/sweep-producer.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { candleSweepProcessor } from '../../workers/processors/sweep/candle-sweep-processor.js';
import type { RunningRole } from '../../workers/runtime.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { waitFor } from '../helpers/market-wait.js';
import { testRedisUrl, useFreshRedis } from '../helpers/redis.js';
import {
  bookMoney,
  candle,
  closedPosition,
  eventsOf,
  MINUTE,
  openPosition,
  outbox,
  positionEvents,
  seedPositions,
  testSweep,
  testPosition,
} from '../helpers/sweep.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

const A: BookRef = { accountId: 'acctsweep1', book: 'main' };
const nextMinute = (): number => Math.ceil((Date.now() + 1) / MINUTE) * MINUTE;

/** What a close at `exit` settles to, in cents (no funding recorded in these tests). */
const cents = (p: Position, exit: number): number => computeClose(p, exit, 100, 0, Date.now(), 'x').cents;

describe('the sweep of open positions (real Redis)', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh), 'each');
  /** A keyed API over this Redis with `marks` set, and a new trader's main book; the API closes after `body`. */
  const withTrader = async (
    marks: Record<string, number>,
    body: (t: { api: TestApi; trader: Trader; ref: BookRef; prices: TestPrices }) => Promise<void>,
  ): Promise<void> => {
    const prices = new TestPrices(redis);
    await prices.set(marks);
    const api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' });
    try {
      const trader = await createTrader(accountServices(redis));
      await body({ api, trader, ref: { accountId: trader.accountId, book: 'main' }, prices });
    } finally {
      await api.close();
    }
  };

  it('settles what a candle crosses at the level (stop, target, liquidation, long and short), leaves the rest, one event each', async () => {
    const at = (over: Partial<Position> & { side: 'long' | 'short' }, symbol = 'ETHUSDT') =>
      testPosition(A, { symbol, entry: 100, ...over });
    const p = {
      longStop: at({ side: 'long', sl: 95, tp: 110 }),
      longTarget: at({ side: 'long', tp: 103 }),
      longBoth: at({ side: 'long', sl: 96, tp: 103 }),
      longUntouched: at({ side: 'long', sl: 90, tp: 120 }),
      shortStop: at({ side: 'short', sl: 104 }),
      shortTarget: at({ side: 'short', tp: 95 }),
      shortUntouched: at({ side: 'short', tp: 80 }),
      longLiq: at({ side: 'long' }, 'SOLUSDT'),
      longStopAboveLiq: at({ side: 'long', sl: 92 }, 'SOLUSDT'),
      shortLiq: at({ side: 'short' }, 'SOLUSDT'),
      shortStopBeyondLiq: at({ side: 'short', sl: 112 }, 'SOLUSDT'),
    };
    await seedPositions(redis, A, Object.values(p));
    const minute = nextMinute();
    const report = await testSweep(redis).candle.sweep([candle('ETHUSDT', minute, 94, 104), candle('SOLUSDT', minute, 85, 115)]);
    expect(report).to.deep.include({ settled: 9, liquidated: 3, dropped: 0 });

    const expected: [Position, string, number][] = [
      [p.longStop, 'stop_loss', 95],
      [p.longTarget, 'take_profit', 103],
      [p.longBoth, 'stop_loss', 96],
      [p.shortStop, 'stop_loss', 104],
      [p.shortTarget, 'take_profit', 95],
      [p.longLiq, 'liquidation', 90.5],
      [p.longStopAboveLiq, 'stop_loss', 92],
      [p.shortLiq, 'liquidation', 109.5],
      [p.shortStopBeyondLiq, 'liquidation', 109.5],
    ];
    for (const [position, reason, exit] of expected) {
      const closed = await closedPosition(redis, A, position.id);
      expect(closed, reason).to.include({ status: 'closed', close_reason: reason, exit, liquidated: reason === 'liquidation' });
      // the store holds exit once; the view adds the original's exit_price
      expect(closed, reason).to.not.have.property('exit_price');
      expect(Math.round(closed!.pnl_usd! * 100)).to.equal(cents(position, exit));
      const event = reason === 'liquidation' ? 'position.liquidated' : 'position.closed';
      const events = await positionEvents(redis, A.accountId, position.id);
      expect(events.map((e) => e.event)).to.deep.equal(['position.opened', event]);
      // the event carries the closed record as stored, of its book, at its close time
      expect(events[1]).to.deep.include({ book: 'main', ts: closed!.closed_ts, position: closed });
      const member = `${A.accountId}|main|${position.id}`;
      for (const kind of ['sl', 'tp', 'liq', 'trail'] as const)
        expect(await redis.zscore(keys.triggerIndex(position.symbol, kind, position.side), member)).to.equal(null);
    }
    for (const untouched of [p.longUntouched, p.shortUntouched]) {
      expect(await openPosition(redis, A, untouched.id)).to.deep.equal(untouched);
      expect(await eventsOf(redis, A.accountId, untouched.id)).to.deep.equal(['position.opened']);
    }
    const money = await bookMoney(redis, A);
    expect(money).to.deep.equal({
      closed: 9,
      liquidations: 3,
      realizedCents: expected.reduce((sum, [position, , exit]) => sum + cents(position, exit), 0),
    });
  });

  it('ratchets a trailing stop on the minute, never fires it at a level its own candle moved, and fires it on the next', async () => {
    const long = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, trail_pct: 5, trail_hwm: 100 });
    const short = testPosition(A, { symbol: 'SOLUSDT', side: 'short', entry: 100, trail_pct: 2, trail_hwm: 100 });
    await seedPositions(redis, A, [long, short]);
    const member = `${A.accountId}|main|${long.id}`;
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'sl', 'long'), member)).to.equal('95');
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'trail', 'long'), member)).to.equal('100');
    const sweep = testSweep(redis);
    const minute = nextMinute();
    // long: the high (105) puts the stop at 99.75, above the candle's own low (97); checked first at 95, it holds.
    // short: the low (97) puts the stop at 98.94, below the candle's own high (101); checked first at 102, it holds.
    const firstCandles = [candle('ETHUSDT', minute, 97, 105), candle('SOLUSDT', minute, 97, 101)];
    expect(await sweep.candle.sweep(firstCandles)).to.deep.include({ settled: 0, ratcheted: 2 });
    expect(await openPosition(redis, A, long.id)).to.include({ trail_hwm: 105, trail_ts: minute + MINUTE, v: 2 });
    expect(await openPosition(redis, A, short.id)).to.include({ trail_hwm: 97, trail_ts: minute + MINUTE, v: 2 });
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'sl', 'long'), member)).to.equal('99.75');
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'trail', 'long'), member)).to.equal('105');
    const ratchets = await Promise.all([long, short].map(async (p) => (await positionEvents(redis, A.accountId, p.id)).slice(1)));
    for (const [i, p] of [long, short].entries()) {
      const moved = (await openPosition(redis, A, p.id))!;
      expect(ratchets[i].map((e) => e.event)).to.deep.equal(['position.updated']);
      // the position as it stands after the ratchet: only the mark (and its bookkeeping) moved
      expect(ratchets[i][0]).to.deep.include({ book: 'main', position: moved });
      expect(moved).to.deep.equal({
        ...p,
        v: 2,
        trail_hwm: moved.trail_hwm,
        trail_ts: minute + MINUTE,
        trail_prev_hwm: 100,
        trail_prev_ts: 0,
      });
    }
    // the same candles again (a retried job) change nothing
    expect(await sweep.candle.sweep(firstCandles)).to.deep.include({ settled: 0, ratcheted: 0 });
    // the next minute reaches the moved stops
    const next = await sweep.candle.sweep([candle('ETHUSDT', minute + MINUTE, 99, 101), candle('SOLUSDT', minute + MINUTE, 98, 100)]);
    expect(next).to.deep.include({ settled: 2 });
    expect(await closedPosition(redis, A, long.id)).to.include({ close_reason: 'trailing_stop', exit: 99.75 });
    expect(await closedPosition(redis, A, short.id)).to.include({ close_reason: 'trailing_stop', exit: 98.94 });
    expect(await eventsOf(redis, A.accountId, long.id)).to.deep.equal(['position.opened', 'position.updated', 'position.closed']);
    expect(await eventsOf(redis, A.accountId, short.id)).to.deep.equal(['position.opened', 'position.updated', 'position.closed']);
    expect(await redis.zcard(keys.triggerIndex('ETHUSDT', 'trail', 'long'))).to.equal(0);
  });

  it('drops index entries whose position is gone, and sets an early entry of an open position back to its level', async () => {
    const live = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 90 });
    await seedPositions(redis, A, [live]);
    const ghost = `${A.accountId}|main|bpghost`;
    const liveMember = `${A.accountId}|main|${live.id}`;
    await redis.zadd(keys.triggerIndex('ETHUSDT', 'sl', 'long'), 99, ghost);
    await redis.zadd(keys.triggerIndex('ETHUSDT', 'liq', 'long'), 99, ghost);
    // an entry earlier than the level (a stop loosened from 97 to 90): the position itself decides, nothing fires
    await redis.zadd(keys.triggerIndex('ETHUSDT', 'sl', 'long'), 97, liveMember);
    const report = await testSweep(redis).candle.sweep([candle('ETHUSDT', nextMinute(), 96, 100)]);
    expect(report).to.deep.include({ checked: 2, settled: 0, dropped: 1 });
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'sl', 'long'), ghost)).to.equal(null);
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'liq', 'long'), ghost)).to.equal(null);
    expect(await redis.zscore(keys.triggerIndex('ETHUSDT', 'sl', 'long'), liveMember)).to.equal('90');
    expect(await openPosition(redis, A, live.id)).to.deep.equal(live);
    expect(await outbox(redis, A.accountId)).to.have.length(1);
  });

  it('sweeps one book against live prices (the stream tick) and leaves other books alone', async () => {
    await new TestPrices(redis).set({ ETHUSDT: 100 });
    const other: BookRef = { accountId: A.accountId, book: 'b2' };
    const stop = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 105, sl: 101 });
    const target = testPosition(A, { symbol: 'ETHUSDT', side: 'short', entry: 105, tp: 100.5 });
    const untouched = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 105, sl: 99 });
    const elsewhere = testPosition(other, { symbol: 'ETHUSDT', side: 'long', entry: 105, sl: 101 });
    await seedPositions(redis, A, [stop, target, untouched]);
    await seedPositions(redis, other, [elsewhere]);
    const report = await testSweep(redis)
      .connectedBook({ logger: createLogger(configWith({})) })
      .sweep(A);
    expect(report).to.deep.include({ checked: 3, settled: 2 });
    expect(await closedPosition(redis, A, stop.id)).to.include({ close_reason: 'stop_loss', exit: 101 });
    expect(await closedPosition(redis, A, target.id)).to.include({ close_reason: 'take_profit', exit: 100.5 });
    expect(await openPosition(redis, A, untouched.id)).to.not.equal(null);
    expect(await openPosition(redis, other, elsewhere.id)).to.not.equal(null);
    // the live sweep of every symbol finds the other book's stop through the index
    expect(await testSweep(redis).live.sweep()).to.deep.include({ settled: 1 });
    expect(await closedPosition(redis, other, elsewhere.id)).to.include({ close_reason: 'stop_loss', exit: 101 });
  });

  it('each of the three triggers (candle, live, connected book) settles a crossed stop at its level, once', async () => {
    await new TestPrices(redis).set({ ETHUSDT: 100 });
    const sweep = testSweep(redis);
    const triggers: [string, (ref: BookRef) => Promise<unknown>][] = [
      ['candle', () => sweep.candle.sweep([candle('ETHUSDT', nextMinute(), 99, 102)])],
      ['live', () => sweep.live.sweep()],
      ['connectedBook', (ref) => sweep.connectedBook({ logger: createLogger(configWith({})) }).sweep(ref)],
    ];
    for (const [name, run] of triggers) {
      const ref: BookRef = { accountId: A.accountId, book: name.toLowerCase() };
      const stop = testPosition(ref, { symbol: 'ETHUSDT', side: 'long', entry: 105, sl: 101 });
      await seedPositions(redis, ref, [stop]);
      expect(await run(ref), name).to.deep.include({ settled: 1 });
      expect(await closedPosition(redis, ref, stop.id), name).to.include({ close_reason: 'stop_loss', exit: 101 });
      expect(await run(ref), `${name} again`).to.deep.include({ settled: 0 });
    }
  });

  it('a manual close racing a sweep settles each position once; the balance moves once', () =>
    withTrader({ ETHUSDT: 100 }, async ({ api, trader, ref }) => {
      const sweep = testSweep(redis);
      const close = (id: string) => botCall<{ error?: string }>(api.url, trader, 'POST', '/close', { id, symbol: 'ETHUSDT' });
      // which side wins each position is the scheduler's choice: rounds until one where both sides won some (a round
      // where one side took every position raced nothing); every round's settlements are checked
      const firstMinute = nextMinute();
      let closed = 0;
      let realized = 0;
      let raced = '';
      for (let round = 0; round < 5 && !raced; round++) {
        const opened = await Promise.all(
          Array.from({ length: 40 }, () =>
            botCall<{ position: Position }>(api.url, trader, 'POST', '/open', {
              symbol: 'ETH',
              side: 'long',
              margin_usd: 100,
              leverage: 10,
              sl: 95,
            }),
          ),
        );
        const ids = opened.map((r) => r.body.position.id);
        // each round its own two minutes: a minute is swept once
        const minute = firstMinute + 2 * round * MINUTE;
        await sweep.candle.sweep([candle('ETHUSDT', minute, 99, 100)]); // warmed up: a candle that crosses nothing
        // the sweep starts once the first close has settled, while the rest of the closes are in flight
        const firstWave = ids.slice(0, 20).map(close);
        await Promise.race(firstWave);
        const [closes, report] = await Promise.all([
          Promise.all([...firstWave, ...ids.slice(20).map(close)]),
          sweep.candle.sweep([candle('ETHUSDT', minute + MINUTE, 90, 100)]),
        ]);
        const manual = closes.filter((r) => r.status === 200).length;
        expect(closes.every((r) => r.status === 200 || (r.status === 409 && r.body.error === 'already_closed'))).to.equal(true);
        expect(manual + report.settled).to.equal(40);
        if (manual > 0 && report.settled > 0) raced = `${manual} manual, ${report.settled} swept`;
        for (const id of ids) {
          const position = await closedPosition(redis, ref, id);
          expect(position).to.include(position?.close_reason === 'manual' ? { exit: 100 } : { close_reason: 'stop_loss', exit: 95 });
          realized += Math.round(position!.pnl_usd! * 100);
          expect((await eventsOf(redis, ref.accountId, id)).filter((e) => e !== 'position.opened')).to.deep.equal(['position.closed']);
        }
        closed += 40;
      }
      expect(raced, 'a round both sides won').to.not.equal('');
      // the balance moved once per position: the book's counters add up to its trades
      expect(await bookMoney(redis, ref)).to.deep.equal({ closed, liquidations: 0, realizedCents: realized });
    }));

  it('a stop or target set within a minute waits for the next candle (its low or high may predate it); the live sweep and liquidation do not wait', () =>
    withTrader({ ETHUSDT: 99, SOLUSDT: 99, BNBUSDT: 99 }, async ({ api, trader, ref, prices }) => {
      const at = (over: Partial<Position> & { side: 'long' | 'short' }, symbol = 'ETHUSDT') =>
        testPosition(ref, { symbol, entry: 100, ...over });
      // long at 100 (liquidation 90.5); the minute's low (95) and high (104) came before the client set sl 97 or tp 103 with the price at
      // 99
      const p = {
        late: at({ side: 'long' }),
        lateTarget: at({ side: 'long' }),
        early: at({ side: 'long', sl: 97 }),
        lateLiq: at({ side: 'long' }, 'SOLUSDT'),
        live: at({ side: 'long' }, 'BNBUSDT'),
      };
      await seedPositions(redis, ref, Object.values(p));
      for (const [id, levels] of [
        [p.late.id, { sl: 97 }],
        [p.lateTarget.id, { tp: 103 }],
        [p.lateLiq.id, { sl: 92 }],
        [p.live.id, { sl: 97 }],
      ] as const) {
        const set = await botCall<{ position: Record<string, unknown> }>(api.url, trader, 'POST', '/sltp', { id, ...levels });
        expect(set.status).to.equal(200);
        expect(set.body.position).to.not.have.property('levels_ts');
      }
      const stamp = (await openPosition(redis, ref, p.late.id))!.levels_ts!;
      expect(stamp).to.be.within(Date.now() - 10_000, Date.now());
      // the candle of the minute the levels were set in (it started before them)
      const minute = Math.floor((stamp - 1) / MINUTE) * MINUTE;
      const sweep = testSweep(redis);
      const first = await sweep.candle.sweep([candle('ETHUSDT', minute, 95, 104), candle('SOLUSDT', minute, 89, 99)]);
      expect(first).to.deep.include({ settled: 2, liquidated: 1 });
      expect(await openPosition(redis, ref, p.late.id)).to.include({ sl: 97, status: 'open' });
      expect(await openPosition(redis, ref, p.lateTarget.id)).to.include({ tp: 103, status: 'open' });
      // the stop set an hour ago (before the candle started) fires; the liquidation does not care when the stop was set
      expect(await closedPosition(redis, ref, p.early.id)).to.include({ close_reason: 'stop_loss', exit: 97 });
      expect(await closedPosition(redis, ref, p.lateLiq.id)).to.include({ close_reason: 'liquidation', exit: 90.5 });
      expect(await eventsOf(redis, ref.accountId, p.late.id)).to.deep.equal(['position.opened', 'position.updated']);
      // the live sweep fires a level as soon as a live price crosses it
      await prices.set({ BNBUSDT: 96.5 });
      expect(await sweep.live.sweep()).to.deep.include({ settled: 1 });
      expect(await closedPosition(redis, ref, p.live.id)).to.include({ close_reason: 'stop_loss', exit: 97 });
      // the next minute's candle started after the levels were set: it fires them
      const next = await sweep.candle.sweep([candle('ETHUSDT', minute + MINUTE, 96, 104)]);
      expect(next).to.deep.include({ settled: 2 });
      expect(await closedPosition(redis, ref, p.late.id)).to.include({ close_reason: 'stop_loss', exit: 97 });
      expect(await closedPosition(redis, ref, p.lateTarget.id)).to.include({ close_reason: 'take_profit', exit: 103 });
    }));

  it("a trailing stop a positions read moved within a minute: that minute's candle is checked against the stop the minute began with", () =>
    withTrader({ ETHUSDT: 110, SOLUSDT: 90, BNBUSDT: 110 }, async ({ api, trader, ref }) => {
      // entry 100, 5%: both minutes below began with the stops at 95 (long) and 105 (short), opened an hour ago
      const p = {
        long: testPosition(ref, { symbol: 'ETHUSDT', side: 'long', entry: 100, trail_pct: 5, trail_hwm: 100 }),
        short: testPosition(ref, { symbol: 'SOLUSDT', side: 'short', entry: 100, trail_pct: 5, trail_hwm: 100 }),
        held: testPosition(ref, { symbol: 'BNBUSDT', side: 'long', entry: 100, trail_pct: 5, trail_hwm: 100 }),
      };
      await seedPositions(redis, ref, Object.values(p));
      // the read moves the marks to the live prices: stops 104.5 and 94.5
      const read = await botCall<{ positions: Record<string, unknown>[] }>(api.url, trader, 'GET', '/positions');
      expect(read.status).to.equal(200);
      for (const view of read.body.positions) expect(view).to.not.have.any.keys('trail_ts', 'trail_prev_hwm', 'trail_prev_ts');
      expect(read.body.positions.find((v) => v.id === p.long.id)).to.include({ trail_hwm: 110 });
      const moved = (await openPosition(redis, ref, p.long.id))!;
      expect(moved).to.include({ trail_hwm: 110, trail_prev_hwm: 100 });
      // the candle of the minute of the read: the low below 95 (and the high above 105) crossed whichever stop was in force;
      // BNB's low (100) is below its moved stop (104.5) but above the one the minute began with: it may have come before the read
      const minute = Math.floor((moved.trail_ts! - 1) / MINUTE) * MINUTE;
      const sweep = testSweep(redis);
      const report = await sweep.candle.sweep([
        candle('ETHUSDT', minute, 94, 110),
        candle('SOLUSDT', minute, 90, 106),
        candle('BNBUSDT', minute, 100, 110),
      ]);
      expect(report).to.deep.include({ settled: 2 });
      expect(await closedPosition(redis, ref, p.long.id)).to.include({ close_reason: 'trailing_stop', exit: 95 });
      expect(await closedPosition(redis, ref, p.short.id)).to.include({ close_reason: 'trailing_stop', exit: 105 });
      expect(await openPosition(redis, ref, p.held.id)).to.include({ trail_hwm: 110, status: 'open' });
      // the next candle is checked against the moved stop
      expect(await sweep.candle.sweep([candle('BNBUSDT', minute + MINUTE, 104, 109)])).to.deep.include({ settled: 1 });
      expect(await closedPosition(redis, ref, p.held.id)).to.include({ close_reason: 'trailing_stop', exit: 104.5 });
      for (const position of Object.values(p))
        expect(await eventsOf(redis, ref.accountId, position.id)).to.deep.equal(['position.opened', 'position.updated', 'position.closed']);
    }));

  it("levels changed through /sltp within a minute: that minute's candle fires a stop the change kept, not one it removed", () =>
    withTrader({ ETHUSDT: 100, SOLUSDT: 100, BNBUSDT: 100 }, async ({ api, trader, ref }) => {
      // each stop (95, 105) was in force long before the minute of the change
      const p = {
        kept: testPosition(ref, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 95 }),
        keptShort: testPosition(ref, { symbol: 'SOLUSDT', side: 'short', entry: 100, sl: 105 }),
        removed: testPosition(ref, { symbol: 'BNBUSDT', side: 'long', entry: 100, sl: 95 }),
      };
      await seedPositions(redis, ref, Object.values(p));
      for (const [id, body] of [
        [p.kept.id, { tp: 110 }],
        [p.keptShort.id, { tp: 90 }],
        [p.removed.id, { sl: null }],
      ] as const) {
        const r = await botCall<{ position: Record<string, unknown> }>(api.url, trader, 'POST', '/sltp', { id, ...body });
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        expect(r.body.position).to.not.have.any.keys('levels_ts', 'levels_prev');
      }
      const changed = (await openPosition(redis, ref, p.kept.id))!;
      // the candle of the minute of the change: lows (highs) past the stops that may have come before it
      const minute = Math.floor(changed.levels_ts! / MINUTE) * MINUTE;
      const report = await testSweep(redis).candle.sweep([
        candle('ETHUSDT', minute, 94, 101),
        candle('SOLUSDT', minute, 99, 106),
        candle('BNBUSDT', minute, 94, 101),
      ]);
      expect(report).to.deep.include({ settled: 2 });
      const closed = (await closedPosition(redis, ref, p.kept.id))!;
      expect(closed).to.include({ close_reason: 'stop_loss', exit: 95, status: 'closed', liquidated: false, tp: 110 });
      expect(await closedPosition(redis, ref, p.keptShort.id)).to.include({ close_reason: 'stop_loss', exit: 105 });
      expect(changed.levels_prev).to.deep.equal({ sl: 95, tp: null, trail_pct: null, ts: p.kept.opened_ts });
      // the low may have come after the stop was removed: it waits for the next candle
      expect(await openPosition(redis, ref, p.removed.id)).to.include({ status: 'open', sl: null });
      const events = (await outbox(redis, ref.accountId)).filter((e) => e.position.id === p.kept.id);
      expect(events.map((e) => e.event)).to.deep.equal(['position.opened', 'position.updated', 'position.closed']);
      expect(events[2].position).to.deep.equal(closed);
      expect(events[2].position).to.include({ id: p.kept.id, symbol: 'ETHUSDT', side: 'long', exit: 95, pnl_usd: cents(p.kept, 95) / 100 });
      expect(await eventsOf(redis, ref.accountId, p.removed.id)).to.deep.equal(['position.opened', 'position.updated']);
    }));

  describe('through the sweep queue (BullMQ workers)', () => {
    let roles: RunningRole[];
    let inspect: Queue;
    let inspectConnection: RedisClient;
    const startWorkers = async (n: number): Promise<void> => {
      const config = configWith({ REDIS_URL: testRedisUrl() });
      const ctx = { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) };
      for (let i = 0; i < n; i++)
        roles.push(await startWorkerRole(ctx, { processors: [candleSweepProcessor], schedules: [], relay: false }));
    };
    beforeEach(() => {
      roles = [];
      inspectConnection = createBlockingRedis(testRedisUrl());
      inspect = new Queue(QUEUES.sweep, { connection: inspectConnection, prefix: QUEUE_PREFIX });
    });
    afterEach(async () => {
      await Promise.all(roles.map((role) => role.stop()));
      await inspect.close();
      await closeRedis(inspectConnection);
    });
    const finished = (id: string, after = 0) =>
      waitFor(
        async () => {
          const job = await inspect.getJob(id);
          return job && (await job.getState()) === 'completed' && (job.finishedOn ?? 0) > after ? job : undefined;
        },
        20_000,
        `job ${id} completed`,
      );

    /**
     * The feed's path (a minute's first closed candle stored, then its sweep job added) and another
     * worker process driven by hand, which takes jobs and holds them.
     */
    const feedAndElsewhere = () => {
      const config = configWith({ REDIS_URL: testRedisUrl() });
      const producer = createSweepProducer(testRedisUrl());
      const writer = new MarketWriter({
        redis,
        logger: createLogger(config),
        clock: systemClock,
        priceFreshMs: config.priceFreshMs,
        flushIntervalMs: 1_000,
        onFirstClose: (c) =>
          producer.enqueue({ symbol: c.symbol, minute: c.openTime, open: c.open, high: c.high, low: c.low, close: c.close }),
      });
      const close = (minute: number, low: number, high: number) =>
        writer.storeClosed({
          venue: 'binance',
          symbol: 'ETHUSDT',
          openTime: minute,
          open: low,
          high,
          low,
          close: high,
          volume: 1,
          closed: true,
        });
      const elsewhereConnection = createBlockingRedis(testRedisUrl());
      const elsewhere = new Worker<SweepJob>(QUEUES.sweep, null, { connection: elsewhereConnection, prefix: QUEUE_PREFIX });
      const elsewhereProcessor = candleSweepProcessor.create({
        domain: createDomain({ config, redis }),
        redisUrl: testRedisUrl(),
        logger: createLogger(config),
      });
      const stop = async (): Promise<void> => {
        await elsewhere.close();
        await elsewhereProcessor.close?.();
        await producer.close();
        await closeRedis(elsewhereConnection);
      };
      return { close, elsewhere, elsewhereProcessor, stop };
    };

    it('a duplicated or retried candle job changes nothing twice', async () => {
      const stop = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 98 });
      const trailing = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, trail_pct: 5, trail_hwm: 100 });
      await seedPositions(redis, A, [stop, trailing]);
      const producer = createSweepProducer(testRedisUrl());
      const job = candle('ETHUSDT', nextMinute(), 97, 105);
      try {
        await producer.enqueue(job);
        await producer.enqueue(job);
      } finally {
        await producer.close();
      }
      await startWorkers(1);
      const id = sweepJobId('ETHUSDT', job.minute);
      const first = await finished(id);
      expect(first.returnvalue.positions).to.deep.equal({ checked: 2, settled: 1, liquidated: 0, ratcheted: 1, dropped: 0 });
      const events = await outbox(redis, A.accountId);
      const money = await bookMoney(redis, A);
      await first.retry('completed');
      const again = await finished(id, first.finishedOn);
      // the trailing stop its own high moved (99.75) is above the candle's low (97): still not fired
      expect(again.returnvalue.positions).to.deep.equal({ checked: 1, settled: 0, liquidated: 0, ratcheted: 0, dropped: 0 });
      expect(await outbox(redis, A.accountId)).to.deep.equal(events);
      expect(await bookMoney(redis, A)).to.deep.equal(money);
      expect(await inspect.getJobs(['completed', 'waiting', 'active', 'delayed', 'failed'])).to.have.length(1);
      expect(SWEEP_JOB_OPTIONS.attempts).to.be.greaterThan(1);
    });

    it("sweeps a symbol's next minute only after its previous minute, even when another worker process holds that one", async () => {
      // a trailing stop at 95 that the first minute's low fires and the second minute's high would move to 104.5
      const trailing = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, trail_pct: 5, trail_hwm: 100 });
      await seedPositions(redis, A, [trailing]);
      const { close, elsewhere, elsewhereProcessor, stop } = feedAndElsewhere();
      const minute = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
      try {
        expect(await close(minute, 94, 101)).to.equal('first');
        const held: Job<SweepJob> = await elsewhere.getNextJob('held-token');
        expect(held.id).to.equal(sweepJobId('ETHUSDT', minute));
        expect(await close(minute + MINUTE, 99, 110)).to.equal('first');
        await startWorkers(1);
        const nextId = sweepJobId('ETHUSDT', minute + MINUTE);
        await waitFor(async () => (await (await inspect.getJob(nextId))?.getState()) === 'delayed', 20_000, 'the next minute to wait');
        expect(await openPosition(redis, A, trailing.id)).to.deep.equal(trailing);

        const first = (await elsewhereProcessor.process(held, 'held-token')) as { positions: { settled: number } };
        await held.moveToCompleted(first, 'held-token', false);
        const next = await finished(nextId);
        expect(first.positions).to.deep.include({ settled: 1, ratcheted: 0 });
        expect(next.returnvalue.positions).to.deep.include({ settled: 0, ratcheted: 0 });
        expect(await closedPosition(redis, A, trailing.id)).to.include({ close_reason: 'trailing_stop', exit: 95 });
        expect(await eventsOf(redis, A.accountId, trailing.id)).to.deep.equal(['position.opened', 'position.closed']);
      } finally {
        await stop();
      }
    });

    it('does not hold a minute back for a previous minute whose job failed for good', async () => {
      const stop97 = testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 97 });
      await seedPositions(redis, A, [stop97]);
      const { close, elsewhere, stop } = feedAndElsewhere();
      const minute = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
      try {
        await close(minute, 99, 101);
        const held: Job<SweepJob> = await elsewhere.getNextJob('held-token');
        await held.moveToFailed(new UnrecoverableError('given up'), 'held-token', false);
        expect(await held.getState()).to.equal('failed');
        await close(minute + MINUTE, 96, 101);
        await startWorkers(1);
        const next = await finished(sweepJobId('ETHUSDT', minute + MINUTE));
        expect(next.returnvalue.positions).to.deep.include({ settled: 1 });
        expect(await closedPosition(redis, A, stop97.id)).to.include({ close_reason: 'stop_loss', exit: 97 });
      } finally {
        await stop();
      }
    });

    it('two workers on one queue settle each position once, even when two minutes of a symbol race for it', async () => {
      const symbols = ['ETHUSDT', 'SOLUSDT', 'BNBUSDT'];
      const positions = symbols.flatMap((symbol) =>
        Array.from({ length: 100 }, (_, i) =>
          testPosition(A, { symbol, side: i % 2 ? 'long' : 'short', entry: 100, ...(i % 2 ? { sl: 97 } : { sl: 103 }) }),
        ),
      );
      await seedPositions(redis, A, positions);
      await startWorkers(2);
      const minute = nextMinute();
      const jobs = symbols.flatMap((symbol) => [candle(symbol, minute, 96, 104), candle(symbol, minute + MINUTE, 96, 104)]);
      // the candles are kept as the feed keeps them, so each minute finds the one before it
      await Promise.all(jobs.map((j) => redis.zadd(keys.marketCandles1m(j.symbol), j.minute, JSON.stringify(j))));
      await Promise.all(
        [...jobs, ...jobs].map((j) => inspect.add('sweep', j, { ...SWEEP_JOB_OPTIONS, jobId: sweepJobId(j.symbol, j.minute) })),
      );
      await Promise.all(jobs.map((j) => finished(sweepJobId(j.symbol, j.minute))));
      const settledByJobs = (
        await Promise.all(
          jobs.map(
            async (j) =>
              ((await inspect.getJob(sweepJobId(j.symbol, j.minute)))?.returnvalue as { positions: { settled: number } }).positions.settled,
          ),
        )
      ).reduce((a, b) => a + b, 0);
      expect(settledByJobs).to.equal(300);
      expect(await redis.hlen(keys.bookOpen(A.accountId, 'main'))).to.equal(0);
      expect(await redis.hlen(keys.bookClosed(A.accountId, 'main'))).to.equal(300);
      const closes = (await outbox(redis, A.accountId)).filter((e) => e.event === 'position.closed');
      expect(closes).to.have.length(300);
      expect(new Set(closes.map((e) => e.position.id)).size).to.equal(300);
      const money = await bookMoney(redis, A);
      expect(money.closed).to.equal(300);
      expect(money.realizedCents).to.equal(positions.reduce((sum, p) => sum + cents(p, p.sl!), 0));
    });
  });
});
