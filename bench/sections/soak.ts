/**
 * The soak: a mixed trading load held for minutes on the bench stack plus a worker process (or one ROLE=all process),
 * sampled every window, to show that nothing grows without bound under a steady load: each process's resident memory
 * (its lowest reading in the window), JS heap, event-loop delay and open handles, Redis's memory, key count and client
 * connections, the queues' backlog and the outboxes' length, and the window's p99. Each series gets a least-squares
 * slope over the samples after the warm-up; a flat series has a slope near 0. Memory is a saw, so its slope is taken
 * over its troughs: the lowest sample of each 5 minutes.
 *
 * The load, per 10 requests: 3 opens, 3 closes of earlier opens (an open when none is left), 1 stop change, 3 keyed
 * reads of the book; half the accounts have a webhook to a receiver in this process, and each account has a stream
 * socket connected.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type WebSocket from 'ws';
import { QueueCountsReader } from '../../shared/queues/queue-counts.js';
import { WebhookStore } from '../../shared/push/webhook-store.js';
import { configWith } from '../../shared/config.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { MAIN_BOOK } from '../../shared/paper/accounts/account-rules.js';
import { sweepJobId } from '../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { keys } from '../../shared/redis/keys.js';
import type { Child } from '../lib/harness.js';
import { ProcessSampler, type ProcessSample, type SampledProcess } from '../lib/process-sampler.js';
import { countKeys, unrelayedOutboxEntries } from '../lib/redis-census.js';
import { btcLongOpen, createAccountKeys, keyHeaders } from '../lib/keys.js';
import { pacedLoad, quantile, type PacedRequest } from '../lib/paced-load.js';
import { closeAll, connectMany, startBenchReceiver, type BenchReceiver } from '../lib/push-clients.js';
import { startBenchWorker, type BenchStack } from '../lib/stack.js';

export interface SoakOptions {
  /** Requests per second, steady. */
  rate: number;
  seconds: number;
  /** Seconds at the start left out of the slopes. */
  warmUpSeconds: number;
  windowSeconds: number;
  accounts: number;
  /** Each window's sample is appended here as a JSON line. */
  samplesFile: string;
}

export interface SoakSample {
  atSeconds: number;
  /** By process label (api, worker, feed; or all). */
  processes: Record<string, ProcessSample>;
  /** Connections Redis counts (CLIENT LIST): every process's, the soak's own included. */
  redisClients: number;
  redisMemoryMb: number;
  redisKeys: number;
  /** The webhook queue's job records: a delivered job is kept 5 minutes (webhookJobOptions), so they fill for 5 minutes. */
  webhookJobKeys: number;
  /** The sweep queue's job records: one per symbol and minute, kept an hour (SWEEP_JOB_OPTIONS) so a late duplicate finds its twin. */
  sweepJobKeys: number;
  /** Every other key: what has to stay flat. */
  otherKeys: number;
  /** Closed trades the books hold (the ledger, kept by design): what Redis's memory grows with. */
  closedTrades: number;
  queueBacklog: number;
  outboxEntries: number;
  p99Ms: number;
  failed: number;
}

export interface SoakSummary {
  options: SoakOptions;
  samples: SoakSample[];
  /** Per series, its slope per 10 minutes over the samples after the warm-up. */
  slopes: Record<(typeof SERIES)[number], number>;
  /** Per process and series, its slope per minute over the samples after the warm-up (memory: over its troughs). */
  processSlopes: Record<string, Record<keyof ProcessSample, number>>;
  requests: number;
  failed: number;
}

const SERIES = [
  'redisClients',
  'redisMemoryMb',
  'redisKeys',
  'webhookJobKeys',
  'sweepJobKeys',
  'otherKeys',
  'closedTrades',
  'queueBacklog',
  'outboxEntries',
  'p99Ms',
  'failed',
] as const;

/** Least-squares slope of y over x (0 with fewer than two points). */
export function slope(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return 0;
  const meanX = points.reduce((s, p) => s + p.x, 0) / points.length;
  const meanY = points.reduce((s, p) => s + p.y, 0) / points.length;
  const covariance = points.reduce((s, p) => s + (p.x - meanX) * (p.y - meanY), 0);
  const variance = points.reduce((s, p) => s + (p.x - meanX) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
}

export async function measureSoak(stack: BenchStack, options: SoakOptions): Promise<SoakSummary> {
  const redis = createRedis(stack.redis.url);
  let worker: Child | undefined;
  let sampler: ProcessSampler | undefined;
  let receiver: BenchReceiver | undefined;
  let sockets: WebSocket[] = [];
  const queues = new QueueCountsReader(redis, Date.now, 0);
  try {
    // a ROLE=all process runs the worker role itself
    if (!stack.allInOne) worker = await startBenchWorker(stack);
    sampler = new ProcessSampler(processesOf(stack, worker));
    receiver = await startBenchReceiver();
    const accounts = await createAccountKeys(stack.redis.url, options.accounts, 1);
    const hooks = new WebhookStore(redis, configWith().webhookSecretsKey);
    for (const [i, { accountId }] of accounts.entries()) {
      if (i % 2 === 1) continue;
      const hook = { id: `whsoak${i}`, url: `${receiver.url}/hook`, secret: `whs_soak${i}`, book: null, created: Date.now() };
      await hooks.add(accountId, { ...hook, events: ['position.opened', 'position.closed'] }, 50);
    }
    const streamBase = stack.api.url.replace(/^http/, 'ws');
    sockets = await connectMany(
      accounts.map((a) => `${streamBase}/api/bot/v2/stream?api_key=${a.apiKey}`),
      null,
    );
    const opened: { key: string; id: string }[] = [];
    const keyOf = new Map<number, string>();
    let n = 0;
    const openRequest = (i: number): PacedRequest => {
      const key = accounts[n++ % accounts.length].apiKey;
      keyOf.set(i, key);
      return btcLongOpen(key);
    };
    const next = (i: number): PacedRequest => {
      const slot = i % 10;
      if (slot < 3) return openRequest(i);
      if (slot < 6) {
        const target = opened.shift();
        if (!target) return openRequest(i);
        return { path: '/api/bot/v1/close', method: 'POST', headers: keyHeaders(target.key), body: JSON.stringify({ id: target.id }) };
      }
      if (slot === 6 && opened.length > 0) {
        const target = opened[i % opened.length];
        return {
          path: '/api/bot/v1/sltp',
          method: 'POST',
          headers: keyHeaders(target.key),
          body: JSON.stringify({ id: target.id, sl: 1_000 + (i % 997) }),
        };
      }
      return { path: '/api/bot/v1/positions', method: 'GET', headers: keyHeaders(accounts[i % accounts.length].apiKey) };
    };
    const onAnswer = (i: number, status: number, body: string): void => {
      const key = keyOf.get(i);
      keyOf.delete(i);
      if (key && status === 200) opened.push({ key, id: (JSON.parse(body) as { position: { id: string } }).position.id });
    };
    const samples: SoakSample[] = [];
    writeFileSync(options.samplesFile, '');
    const started = performance.now();
    let requests = 0;
    let failed = 0;
    let offset = 0;
    while ((performance.now() - started) / 1000 < options.seconds) {
      const base = offset;
      const run = await pacedLoad({
        url: stack.api.url,
        rate: options.rate,
        seconds: options.windowSeconds,
        connections: 50,
        next: (i) => next(base + i),
        onAnswer: (i, status, body) => onAnswer(base + i, status, body),
      });
      offset += run.sent;
      requests += run.sent;
      failed += run.failed;
      const memory = await redis.info('memory');
      const counts = await queues.counts();
      const redisKeys = await redis.dbsize();
      const webhookJobKeys = await countKeys(redis, `${QUEUE_PREFIX}:${QUEUES.webhooks}:*`);
      const sweepJobKeys = await countKeys(redis, `${QUEUE_PREFIX}:${QUEUES.sweep}:${sweepJobId('*', 0).replace(/0$/, '*')}`);
      const ledger = redis.pipeline();
      for (const { accountId } of accounts) ledger.hlen(keys.bookClosed(accountId, MAIN_BOOK));
      const closedTrades = ((await ledger.exec()) ?? []).reduce((sum, [, n]) => sum + Number(n ?? 0), 0);
      const sample: SoakSample = {
        atSeconds: Math.round((performance.now() - started) / 1000),
        processes: await sampler.sample(),
        redisClients: String(await redis.client('LIST'))
          .trim()
          .split('\n').length,
        redisMemoryMb: Math.round(Number(/used_memory:(\d+)/.exec(memory)?.[1] ?? 0) / 1024 / 102.4) / 10,
        redisKeys,
        webhookJobKeys,
        sweepJobKeys,
        otherKeys: redisKeys - webhookJobKeys - sweepJobKeys,
        closedTrades,
        queueBacklog: Object.values(counts).reduce((s, c) => s + c.waiting + c.active + c.delayed, 0),
        outboxEntries: await unrelayedOutboxEntries(redis),
        p99Ms: Math.round(quantile(run.latenciesMs, 0.99) * 10) / 10,
        failed: run.failed,
      };
      samples.push(sample);
      // a long soak's samples as they come, so a run cut short still has them
      appendFileSync(options.samplesFile, `${JSON.stringify(sample)}\n`);
    }
    return summarizeSoak(options, samples, requests, failed);
  } finally {
    sampler?.stop();
    closeAll(sockets);
    await queues.close();
    await receiver?.close();
    await worker?.stop();
    await closeRedis(redis);
  }
}

/** The slopes of a soak's samples after its warm-up (also for a samples file read back: bench/soak-report.ts). */
export function summarizeSoak(options: SoakOptions, samples: SoakSample[], requests: number, failed: number): SoakSummary {
  const steady = samples.filter((s) => s.atSeconds > options.warmUpSeconds);
  const slopes = Object.fromEntries(
    SERIES.map((series) => [series, slope(steady.map((s) => ({ x: s.atSeconds / 600, y: s[series] })))]),
  ) as SoakSummary['slopes'];
  return { options, samples, slopes, processSlopes: processSlopes(samples, options.warmUpSeconds), requests, failed };
}

/** The processes under test: the stack's API and feed and the soak's worker, or the one ROLE=all process. */
function processesOf(stack: BenchStack, worker: Child | undefined): SampledProcess[] {
  const entry = (label: string, child: Child): SampledProcess => ({
    label,
    pid: child.process.pid ?? 0,
    metricsUrl: stack.metricsUrls.get(child.process.pid ?? 0),
  });
  if (stack.allInOne) return [entry('all', stack.allInOne)];
  return [entry('api', stack.api), entry('worker', worker ?? stack.api), entry('feed', stack.feed)];
}

const TROUGH_BLOCK_SECONDS = 300;
const MEMORY = new Set<keyof ProcessSample>(['rssMb', 'heapUsedMb']);

/**
 * A process series' troughs: the lowest sample of each whole 5 minutes. Memory is a saw (it climbs until a major collection,
 * a tooth of a minute or two here), so its plain slope over a few minutes says where in a tooth the run ended; a leak
 * shows as troughs that climb.
 */
export function troughs(
  samples: readonly SoakSample[],
  label: string,
  series: keyof ProcessSample,
): { atSeconds: number; value: number }[] {
  const blocks = new Map<number, { atSeconds: number; value: number }>();
  for (const sample of samples) {
    const value = sample.processes[label]?.[series];
    if (value === undefined || Number.isNaN(value)) continue;
    const block = Math.floor(sample.atSeconds / TROUGH_BLOCK_SECONDS);
    const lowest = blocks.get(block);
    if (!lowest || value < lowest.value) blocks.set(block, { atSeconds: sample.atSeconds, value });
  }
  // the last block is cut short by the end of the run: its lowest sample is no trough
  return [...blocks.values()].slice(0, -1);
}

/** Per process and series, the slope per minute after the warm-up: over the troughs for memory, every sample otherwise. */
function processSlopes(samples: readonly SoakSample[], warmUpSeconds: number): SoakSummary['processSlopes'] {
  const steady = samples.filter((s) => s.atSeconds > warmUpSeconds);
  const labels = Object.keys(samples[0]?.processes ?? {});
  const series = ['rssMb', 'heapUsedMb', 'eventLoopP99Ms', 'activeHandles'] as const;
  const points = (label: string, name: keyof ProcessSample): { x: number; y: number }[] =>
    MEMORY.has(name)
      ? troughs(steady, label, name).map((t) => ({ x: t.atSeconds / 60, y: t.value }))
      : steady.map((s) => ({ x: s.atSeconds / 60, y: s.processes[label][name] })).filter((p) => !Number.isNaN(p.y));
  return Object.fromEntries(
    labels.map((label) => [label, Object.fromEntries(series.map((name) => [name, slope(points(label, name))]))]),
  ) as SoakSummary['processSlopes'];
}

export function soakTable(summary: SoakSummary): string {
  const { warmUpSeconds } = summary.options;
  const steady = summary.samples.filter((s) => s.atSeconds > warmUpSeconds);
  const first = steady[0];
  const last = steady.at(-1);
  const row = (label: string, series: (typeof SERIES)[number], unit: string): string =>
    `| ${label} | ${first?.[series] ?? ''} | ${last?.[series] ?? ''} | ${Math.min(...steady.map((s) => s[series]))} | ${Math.max(...steady.map((s) => s[series]))} | ${summary.slopes[series].toFixed(2)} ${unit} per 10 min |`;
  const processRows = Object.entries(summary.processSlopes).flatMap(([label, slopes]) => {
    const values = (series: keyof ProcessSample): number[] =>
      MEMORY.has(series) ? troughs(steady, label, series).map((t) => t.value) : steady.map((s) => s.processes[label][series]);
    const line = (what: string, series: keyof ProcessSample, unit: string): string => {
      const seen = values(series);
      return `| ${label}: ${what} | ${seen[0] ?? ''} | ${seen.at(-1) ?? ''} | ${Math.min(...seen)} | ${Math.max(...seen)} | ${slopes[series].toFixed(3)} ${unit} per min |`;
    };
    return [
      line('resident memory, lowest of each 5 min, MB', 'rssMb', 'MB'),
      line('JS heap used, lowest of each 5 min, MB', 'heapUsedMb', 'MB'),
      line('event-loop delay p99 of the window, ms', 'eventLoopP99Ms', 'ms'),
      line('open handles', 'activeHandles', ''),
    ];
  });
  const { rate, seconds, accounts } = summary.options;
  return [
    `Soak: ${rate} requests/s for ${seconds} s (${summary.requests} requests, ${summary.failed} not 2xx), ${accounts} accounts with a socket each, half with a webhook; slopes over the samples after ${warmUpSeconds} s.`,
    '',
    '| series | first after warm-up | last | min | max | slope |',
    '|---|---:|---:|---:|---:|---:|',
    ...processRows,
    row('Redis client connections (CLIENT LIST)', 'redisClients', ''),
    row('Redis used memory, MB', 'redisMemoryMb', 'MB'),
    row('Redis keys', 'redisKeys', 'keys'),
    row('  of which the webhook queue (a delivered job kept 5 min)', 'webhookJobKeys', 'keys'),
    row('  of which the sweep queue (a job per symbol and minute, kept 1 h)', 'sweepJobKeys', 'keys'),
    row('  every other key', 'otherKeys', 'keys'),
    row('closed trades in the books (the ledger)', 'closedTrades', 'trades'),
    row('queue backlog (waiting + active + delayed)', 'queueBacklog', 'jobs'),
    row('outbox entries not yet relayed', 'outboxEntries', 'entries'),
    row('p99 of the window, ms', 'p99Ms', 'ms'),
    row('requests not 2xx in the window', 'failed', ''),
  ].join('\n');
}
