/**
 * The minute sweep at scale, on a private Redis: 1,000,000 open positions over 500 symbols, one
 * closed candle per symbol, 1% of the positions triggered (10,000 settlements: stops, targets and
 * liquidations, long and short). Measured two ways on the same data in the same run, in
 * interleaved rounds (the triggered positions are put back between runs):
 * - indexed: the candle trigger (SweepService.sweepCandles), the code the sweep jobs run (index ranges, pipelined reads,
 *   settlement scripts pipelined);
 * - naive: scan every book's open positions and decide each one, then settle what triggers through
 *   the same settler and scripts;
 * - queued: as production runs it, one job per candle through the sweep queue to the worker role's
 *   sweep worker (bench/lib/sweep-queue.ts), from the first add to the last completion.
 */
import { createDomain } from '../../shared/domain.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { configWith } from '../../shared/config.js';
import { systemClock } from '../../shared/core/clock.js';
import { decide, type PriceWindow } from '../../shared/engine/triggers.js';
import { FundingStore } from '../../shared/paper/funding/funding-store.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import { parsePosition } from '../../shared/paper/positions/position-types.js';
import { candleWindow } from '../../shared/paper/sweep/sweep-service.js';
import { SweepSettler, type SweepTarget } from '../../shared/paper/sweep/sweep-settler.js';
import { SweepStore } from '../../shared/paper/sweep/sweep-store.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { startEmbeddedRedis } from '../../shared/redis/embedded.js';
import { median } from '../lib/harness.js';
import { restoreTriggered, seedSweepData, type SweepData } from '../lib/sweep-data.js';
import { startQueuedSweeper, type QueuedSweeper } from '../lib/sweep-queue.js';

export interface SweepBenchSummary {
  positions: number;
  symbols: number;
  settlementsPerRun: number;
  rounds: number;
  seedSeconds: number;
  /** Medians of one minute's sweep, ms: through the indexes, and the naive scan; ratio = naive / indexed. */
  indexedMs: number;
  naiveMs: number;
  ratio: number;
  /** Median of the same minute through the sweep queue and its worker processes, ms (the production path). */
  queuedMs: number;
  workers: number;
  /** Of the naive run: finding what triggers (scan and decide) and settling it; the settling is the same work in both. */
  naiveFindMs: number;
  settleMs: number;
  /** A minute whose candles cross nothing: the indexed sweep reads only its empty ranges, the naive one still reads everything. */
  quietIndexedMs: number;
  quietNaiveMs: number;
  /** The untimed-in-the-median first sweep of each kind, ms: code not yet compiled, as in a worker's first minute. */
  coldIndexedMs: number;
  coldNaiveMs: number;
  coldQueuedMs: number;
  /** Per indexed sweep (median), ms: this process's CPU and Redis's CPU (mostly the 10,000 settlement scripts). */
  indexedNodeCpuMs: number;
  indexedRedisCpuMs: number;
  indexedRuns: number[];
  naiveRuns: number[];
  queuedRuns: number[];
}

const MINUTE_MS = 60_000;
const OPEN_PATTERN = /^acct:\{(.+)\}:b:([^:]+):open$/;

async function redisCpuMs(redis: RedisClient): Promise<number> {
  const info = await redis.info('cpu');
  const read = (name: string): number => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (read('used_cpu_user') + read('used_cpu_sys')) * 1000;
}

/** The naive way: every open position of every book, decided against its symbol's candle. */
async function naiveFind(redis: RedisClient, windows: Map<string, PriceWindow>): Promise<SweepTarget[]> {
  const targets: SweepTarget[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', 'acct:*:b:*:open', 'COUNT', 2_000);
    cursor = next;
    const pipeline = redis.pipeline();
    for (const key of found) pipeline.hvals(key);
    const replies = (await pipeline.exec()) ?? [];
    found.forEach((key, i) => {
      const named = OPEN_PATTERN.exec(key);
      const [error, raws] = replies[i] ?? [];
      if (!named || error) return;
      const ref = { accountId: named[1], book: named[2] };
      for (const raw of raws as string[]) {
        const read = parsePosition(raw);
        const window = windows.get(read.position.symbol);
        if (window && decide(read.position, window, true).kind !== 'none') {
          targets.push({ ref, id: read.position.id, read, window, candle: true, fundingTo: window.to - 1 });
        }
      }
    });
  } while (cursor !== '0');
  return targets;
}

/**
 * A full garbage collection before each measured run, so no run pays for the garbage of the one
 * before it (a naive scan leaves a million parsed positions behind).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  collectGarbage();
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

export async function measureSweep(opts: SweepBenchOptions): Promise<SweepBenchSummary> {
  const server = await startEmbeddedRedis();
  const redis = createRedis(server.url);
  let started: QueuedSweeper | undefined;
  try {
    const queued = (started = await startQueuedSweeper(server.url, opts.workers));
    const config = configWith({});
    const service = createDomain({ config, redis }).sweep;
    const settler = new SweepSettler({
      store: new PositionStore(redis),
      index: new SweepStore(redis),
      funding: new FundingStore(redis),
      clock: systemClock,
    });
    const minute = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
    const seedStart = performance.now();
    const data: SweepData = await seedSweepData(redis, { total: opts.positions, symbolCount: opts.symbols, perBook: 100, minute });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const windows = new Map(data.candles.map((c) => [c.symbol, candleWindow(c)]));
    // the same minute narrowed to [0.999, 1.001] x anchor: it crosses no level at all
    const quiet = data.candles.map((c) => ({ ...c, low: c.open * 0.999, high: c.open * 1.001 }));
    const quietWindows = new Map(quiet.map((c) => [c.symbol, candleWindow(c)]));
    const expected = data.triggered.length;
    const check = (settled: number, wanted: number, how: string): void => {
      if (settled !== wanted) throw new Error(`${how} sweep settled ${settled} of ${wanted}`);
    };
    // A sweep worker is a long-lived process: every minute but its first runs compiled code. So one
    // round of each kind runs first, reported apart as the cold figure, and the median is of the
    // rounds after it.
    const coldIndexed = await timed(() => service.candle.sweep(data.candles));
    check(coldIndexed.value.settled, expected, 'cold indexed');
    await restoreTriggered(redis, data);
    const coldNaive = await timed(async () => settler.apply(await naiveFind(redis, windows)));
    check(coldNaive.value.settled, expected, 'cold naive');
    await restoreTriggered(redis, data);
    const coldQueued = await timed(() => queued.sweep(data.candles));
    check(coldQueued.value, expected, 'cold queued');
    await queued.clear();
    await restoreTriggered(redis, data);
    const runs = {
      queued: [] as number[],
      indexed: [] as number[],
      naive: [] as number[],
      naiveFind: [] as number[],
      settle: [] as number[],
      quietIndexed: [] as number[],
      quietNaive: [] as number[],
      nodeCpu: [] as number[],
      redisCpu: [] as number[],
    };
    for (let round = 0; round < opts.rounds; round++) {
      const redisBefore = await redisCpuMs(redis);
      let cpuBefore = process.cpuUsage();
      const indexed = await timed(() => {
        cpuBefore = process.cpuUsage();
        return service.candle.sweep(data.candles);
      });
      const cpu = process.cpuUsage(cpuBefore);
      runs.nodeCpu.push((cpu.user + cpu.system) / 1000);
      runs.redisCpu.push((await redisCpuMs(redis)) - redisBefore);
      check(indexed.value.settled, expected, 'indexed');
      runs.indexed.push(indexed.ms);
      await restoreTriggered(redis, data);

      const found = await timed(() => naiveFind(redis, windows));
      const settled = await timed(() => settler.apply(found.value));
      check(settled.value.settled, expected, 'naive');
      runs.naiveFind.push(found.ms);
      runs.settle.push(settled.ms);
      runs.naive.push(found.ms + settled.ms);
      await restoreTriggered(redis, data);

      const throughQueue = await timed(() => queued.sweep(data.candles));
      check(throughQueue.value, expected, 'queued');
      runs.queued.push(throughQueue.ms);
      await queued.clear();
      await restoreTriggered(redis, data);

      const quietIndexed = await timed(() => service.candle.sweep(quiet));
      check(quietIndexed.value.settled, 0, 'quiet indexed');
      runs.quietIndexed.push(quietIndexed.ms);
      const quietNaive = await timed(async () => settler.apply(await naiveFind(redis, quietWindows)));
      check(quietNaive.value.settled, 0, 'quiet naive');
      runs.quietNaive.push(quietNaive.ms);
    }
    const indexedMs = median(runs.indexed);
    const naiveMs = median(runs.naive);
    return {
      positions: data.total,
      symbols: data.symbols.length,
      settlementsPerRun: expected,
      rounds: opts.rounds,
      seedSeconds,
      indexedMs,
      naiveMs,
      ratio: naiveMs / indexedMs,
      queuedMs: median(runs.queued),
      workers: opts.workers,
      naiveFindMs: median(runs.naiveFind),
      settleMs: median(runs.settle),
      quietIndexedMs: median(runs.quietIndexed),
      quietNaiveMs: median(runs.quietNaive),
      coldIndexedMs: coldIndexed.ms,
      coldNaiveMs: coldNaive.ms,
      coldQueuedMs: coldQueued.ms,
      indexedNodeCpuMs: median(runs.nodeCpu),
      indexedRedisCpuMs: median(runs.redisCpu),
      indexedRuns: runs.indexed,
      naiveRuns: runs.naive,
      queuedRuns: runs.queued,
    };
  } finally {
    await started?.stop();
    await closeRedis(redis);
    await server.stop();
  }
}

export interface SweepBenchOptions {
  positions: number;
  symbols: number;
  rounds: number;
  /** Worker processes taking the sweep queue's jobs. */
  workers: number;
}

export function sweepTable(s: SweepBenchSummary): string {
  const n = (value: number): string => value.toLocaleString('en-US');
  const ms = (value: number): string => value.toFixed(0);
  return [
    `| minute sweep: ${n(s.positions)} open positions, ${s.symbols} symbols (median of ${s.rounds}) | through the indexes ms | naive scan ms | naive / indexed |`,
    '|---|---:|---:|---:|',
    `| 1% triggered: ${n(s.settlementsPerRun)} settlements | ${ms(s.indexedMs)} | ${ms(s.naiveMs)} | ${s.ratio.toFixed(1)} |`,
    `| 1% triggered, through the sweep queue (${s.symbols} jobs, ${s.workers === 1 ? 'one worker process' : `${s.workers} worker processes`}) | ${ms(s.queuedMs)} | ${ms(s.naiveMs)} | ${(s.naiveMs / s.queuedMs).toFixed(1)} |`,
    `| quiet minute: nothing triggered | ${ms(s.quietIndexedMs)} | ${ms(s.quietNaiveMs)} | ${(s.quietNaiveMs / s.quietIndexedMs).toFixed(0)} |`,
    '',
    `Indexed runs (ms): ${s.indexedRuns.map(ms).join(', ')}; through the queue: ${s.queuedRuns.map(ms).join(', ')}; naive runs: ${s.naiveRuns.map(ms).join(', ')}; before them, the first (cold) run of each: indexed ${ms(s.coldIndexedMs)}, queued ${ms(s.coldQueuedMs)}, naive ${ms(s.coldNaiveMs)}. Of a naive run, finding what triggers took ${ms(s.naiveFindMs)} ms and settling it ${ms(s.settleMs)} ms (the same settlement as the indexed sweep's).`,
    `Per indexed sweep: ${ms(s.indexedNodeCpuMs)} ms of this process's CPU, ${ms(s.indexedRedisCpuMs)} ms of Redis CPU. Seeding took ${s.seedSeconds.toFixed(1)} s.`,
    // both sweeps settle the same positions through the same scripts: only the finding can differ
    `Settling alone bounds the ratio: a sweep that found the triggers for free would still take the ${ms(s.settleMs)} ms of settling, at most ${(s.naiveMs / s.settleMs).toFixed(1)} times faster than the naive scan.`,
  ].join('\n');
}
