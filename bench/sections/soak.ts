/**
 * The soak: a mixed trading load held for minutes on the bench stack plus a worker process, sampled every window, to
 * show that nothing grows without bound under a steady load: the API's and the worker's resident memory, Redis's
 * memory and key count, the queues' backlog and the outboxes' length, and the window's p99. Each series gets a
 * least-squares slope over the samples after the warm-up; a flat series has a slope near 0.
 *
 * The load, per 10 requests: 3 opens, 3 closes of earlier opens (an open when none is left), 1 stop change, 3 keyed
 * reads of the book; half the accounts have a webhook to a receiver in this process, and each account has a stream
 * socket connected.
 */
import { readFileSync } from 'node:fs';
import type WebSocket from 'ws';
import { QueueCountsReader } from '../../shared/queues/queue-counts.js';
import { WebhookStore } from '../../shared/push/webhook-store.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { MAIN_BOOK } from '../../shared/paper/accounts/account-rules.js';
import { sweepJobId } from '../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { keys } from '../../shared/redis/keys.js';
import type { Child } from '../lib/harness.js';
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
}

export interface SoakSample {
  atSeconds: number;
  apiRssMb: number;
  workerRssMb: number;
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
  slopes: Record<Exclude<keyof SoakSample, 'atSeconds'>, number>;
  requests: number;
  failed: number;
}

const SERIES = [
  'apiRssMb',
  'workerRssMb',
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

function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export async function measureSoak(stack: BenchStack, options: SoakOptions): Promise<SoakSummary> {
  const redis = createRedis(stack.redis.url);
  let worker: Child | undefined;
  let receiver: BenchReceiver | undefined;
  let sockets: WebSocket[] = [];
  const queues = new QueueCountsReader(redis, Date.now, 0);
  try {
    worker = await startBenchWorker(stack);
    receiver = await startBenchReceiver();
    const accounts = await createAccountKeys(stack.redis.url, options.accounts, 1);
    const hooks = new WebhookStore(redis);
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
      samples.push({
        atSeconds: Math.round((performance.now() - started) / 1000),
        apiRssMb: Math.round(rssMb(stack.api.process.pid)),
        workerRssMb: Math.round(rssMb(worker.process.pid)),
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
      });
    }
    const steady = samples.filter((s) => s.atSeconds > options.warmUpSeconds);
    const slopes = Object.fromEntries(
      SERIES.map((series) => [series, slope(steady.map((s) => ({ x: s.atSeconds / 600, y: s[series] })))]),
    ) as SoakSummary['slopes'];
    return { options, samples, slopes, requests, failed };
  } finally {
    closeAll(sockets);
    await queues.close();
    await receiver?.close();
    await worker?.stop();
    await closeRedis(redis);
  }
}

/**
 * A series' troughs: the samples lower than both neighbours, after the first minute. A process's resident memory is a
 * saw (it climbs until a major collection, here a tooth of a minute or two), so its plain slope over a few minutes says
 * where in a tooth the run ended; a leak shows as troughs that climb.
 */
export function troughs(samples: readonly SoakSample[], series: 'apiRssMb' | 'workerRssMb'): SoakSample[] {
  return samples.filter(
    (s, i) =>
      i > 0 && i < samples.length - 1 && s.atSeconds > 60 && s[series] < samples[i - 1][series] && s[series] < samples[i + 1][series],
  );
}

export function soakTable(summary: SoakSummary): string {
  const steady = summary.samples.filter((s) => s.atSeconds > summary.options.warmUpSeconds);
  const first = steady[0];
  const last = steady.at(-1);
  const row = (label: string, series: (typeof SERIES)[number], unit: string): string =>
    `| ${label} | ${first?.[series] ?? ''} | ${last?.[series] ?? ''} | ${Math.min(...steady.map((s) => s[series]))} | ${Math.max(...steady.map((s) => s[series]))} | ${summary.slopes[series].toFixed(2)} ${unit} |`;
  const troughRow = (label: string, series: 'apiRssMb' | 'workerRssMb'): string =>
    `| ${label}: ${
      troughs(summary.samples, series)
        .map((s) => `${s[series]} at ${s.atSeconds} s`)
        .join(', ') || 'none'
    } | | | | | |`;
  const { rate, seconds, warmUpSeconds, accounts } = summary.options;
  return [
    `Soak: ${rate} requests/s for ${seconds} s (${summary.requests} requests, ${summary.failed} not 2xx), ${accounts} accounts with a socket each, half with a webhook; slopes over the samples after ${warmUpSeconds} s.`,
    '',
    '| series | first after warm-up | last | min | max | slope per 10 min |',
    '|---|---:|---:|---:|---:|---:|',
    row('API resident memory, MB', 'apiRssMb', 'MB'),
    troughRow('  its troughs (after a major collection)', 'apiRssMb'),
    row('worker resident memory, MB', 'workerRssMb', 'MB'),
    troughRow('  its troughs', 'workerRssMb'),
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
