/**
 * Replays at scale on one worker process, on a private Redis: REPLAYS replays at 600x run at once,
 * each a clock job on the replay queue (concurrency as REPLAY_CONCURRENCY's default) through one
 * BullMQ worker in this process, each journal holding three open positions (a stop, a target and a
 * 50x short that a spike liquidates) on a day of random-walk candles. Measured:
 * - the cursor's lag behind its schedule (schedule - cursor, in replayed seconds), sampled for every
 *   replay every 50 ms: median and p99 (target: p99 under one replayed minute);
 * - the sweep of one replayed minute (the journal read, decided and settled), per minute: median and p99.
 * Replays run for `seconds` of real time (600x: 10 replayed minutes per second each), then stop.
 */
import { Worker, type Job } from 'bullmq';
import { configWith } from '../../shared/config.js';
import { createDomain } from '../../shared/domain.js';
import type { Candle } from '../../shared/market/types.js';
import { ReplayClock } from '../../shared/paper/replay/replay-clock.js';
import { DAY_MS, MINUTE_MS, scheduledCursor, visibleCursor } from '../../shared/paper/replay/replay-math.js';
import { journalBook, journalRef, type ReplayState } from '../../shared/paper/replay/replay-store.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { createReplayProducer, type ReplayJob } from '../../shared/queues/replay-producer.js';
import { closeRedis, createBlockingRedis, createRedis } from '../../shared/redis/connection.js';
import { startEmbeddedRedis } from '../../shared/redis/embedded.js';
import { keys } from '../../shared/redis/keys.js';
import { median } from '../lib/harness.js';
import { testPosition } from '../../test/helpers/sweep.js';

export interface ReplayBenchSummary {
  replays: number;
  speed: number;
  seconds: number;
  lagSamples: number;
  lagMedianS: number;
  lagP99S: number;
  lagMaxS: number;
  minutesSwept: number;
  sweepMedianMs: number;
  sweepP99Ms: number;
  settled: number;
}

const DAY = '2026-03-10';
const S = Date.UTC(2026, 2, 10);
const SPEED = 600;

const p99 = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
};

/** A day's random walk around 50000 with a spike to +2% at minute 120 and a dip to -3% at minute 180. */
function walk(): Candle[] {
  let price = 50_000;
  return Array.from({ length: 1440 }, (_, i) => {
    const open = price;
    price = open * (1 + (Math.random() - 0.5) * 0.001);
    const high = i === 120 ? 51_000 : Math.max(open, price) * 1.0002;
    const low = i === 180 ? 48_500 : Math.min(open, price) * 0.9998;
    return { openTime: S + i * MINUTE_MS, open, high, low, close: price, volume: 1, closed: true };
  });
}

export async function measureReplay(opts: { replays: number; seconds: number }): Promise<ReplayBenchSummary> {
  const server = await startEmbeddedRedis();
  const redis = createRedis(server.url);
  const config = configWith({ REDIS_URL: server.url });
  const domain = createDomain({ config, redis });
  const { store } = domain.replay;
  const producer = createReplayProducer(redis);
  const connection = createBlockingRedis(server.url);
  const sweeps: number[] = [];
  let worker: Worker<ReplayJob> | undefined;
  try {
    await store.cacheCandles('BTCUSDT', DAY, walk());
    const clock = new ReplayClock({
      store,
      candles: domain.replay.service.candles,
      index: domain.stores.sweepIndex,
      funding: domain.stores.funding,
      clock: domain.clock,
    });
    // the replay processor's loop, with the per-minute hook the bench reads
    worker = new Worker<ReplayJob>(
      QUEUES.replay,
      async (job: Job<ReplayJob>, _token?: string, signal?: AbortSignal) =>
        clock.run(job.data, { signal, onMinute: ({ sweepMs }) => sweeps.push(sweepMs) }),
      { connection, prefix: QUEUE_PREFIX, concurrency: config.replay.concurrency },
    );
    const states: ReplayState[] = [];
    for (let i = 0; i < opts.replays; i++) {
      const id = `rpbench${i}`;
      const state: ReplayState = {
        id,
        keyId: `k${i}`,
        accountId: `acctbench${i}`,
        symbol: 'BTCUSDT',
        day: DAY,
        speed: SPEED,
        startTs: S,
        endTs: S + DAY_MS,
        startedAt: Date.now(),
        sweptTo: S,
        candles: 1440,
        firstPrice: 50_000,
        finished: false,
        book: journalBook(id),
      };
      const ref = journalRef(state);
      for (const over of [
        { side: 'long' as const, sl: 49_000 },
        { side: 'long' as const, tp: 50_800 },
        { side: 'short' as const, leverage: 50 },
      ]) {
        await store.journal.open(ref, testPosition(ref, { symbol: 'BTCUSDT', entry: 50_000, opened_ts: S + 1, ...over }), 100);
      }
      states.push(state);
    }
    // every replay starts now: its schedule runs from this moment
    const startedAt = Date.now();
    for (const state of states) {
      state.startedAt = startedAt;
      await store.start(state);
      await producer.start(state);
    }
    const lags: number[] = [];
    const until = startedAt + opts.seconds * 1000;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const pipeline = redis.pipeline();
      for (const s of states) pipeline.hget(keys.replayState(s.accountId, s.keyId), 'swept_to');
      const replies = (await pipeline.exec()) ?? [];
      const now = Date.now();
      replies.forEach(([, value], i) => {
        const s = { ...states[i], sweptTo: Number(value) };
        lags.push((scheduledCursor(s, now) - visibleCursor(s, now)) / 1000);
      });
    }
    let settled = 0;
    for (const s of states) settled += Number((await redis.hget(keys.bookStats(s.accountId, s.book), 'closed')) ?? 0);
    return {
      replays: opts.replays,
      speed: SPEED,
      seconds: opts.seconds,
      lagSamples: lags.length,
      lagMedianS: median(lags),
      lagP99S: p99(lags),
      lagMaxS: Math.max(...lags),
      minutesSwept: sweeps.length,
      sweepMedianMs: median(sweeps),
      sweepP99Ms: p99(sweeps),
      settled,
    };
  } finally {
    worker?.cancelAllJobs('bench done');
    await worker?.close(true);
    await producer.close();
    await closeRedis(connection, redis);
    await server.stop();
  }
}

export function replayTable(r: ReplayBenchSummary): string {
  return [
    `| replays at ${r.speed}x on one worker process (${r.seconds} s) | samples | median | p99 | max |`,
    '|---|---:|---:|---:|---:|',
    `| cursor lag behind schedule, replayed s (target p99 < 60) | ${r.lagSamples} | ${r.lagMedianS.toFixed(1)} | ${r.lagP99S.toFixed(1)} | ${r.lagMaxS.toFixed(1)} |`,
    `| sweep of one replayed minute, ms (${r.settled} settled) | ${r.minutesSwept} | ${r.sweepMedianMs.toFixed(2)} | ${r.sweepP99Ms.toFixed(2)} | |`,
  ].join('\n');
}

const isMain = process.argv[1]?.endsWith('bench/sections/replay.ts');
if (isMain) {
  const replays = Number(process.env.BENCH_REPLAYS ?? 100);
  const seconds = Number(process.env.BENCH_REPLAY_SECONDS ?? 20);
  measureReplay({ replays, seconds }).then(
    (summary) => {
      console.log(JSON.stringify(summary, null, 2));
      console.log(replayTable(summary));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
