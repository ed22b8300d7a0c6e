/**
 * Push benchmarks (BENCH_ONLY=push). On the bench stack (Redis, sim, feed, one API process) plus one
 * worker process (the outbox relay and the webhook processor) and, for the fan-out, a second API
 * process with a 500 ms tick:
 * - settlement to socket: positions opened and closed through the trading services (the real Lua
 *   settlement scripts) in this process; each event's latency is its arrival on a stream socket
 *   minus its ts (the settlement time); saturation rate, then a fixed 1,000 events/s;
 * - webhooks: the same, each event delivered by the worker to a receiver in this process;
 * - price-tick fan-out: 2,000 sockets (1,000 accounts, two each, one open position each) on one API
 *   process (its connected-book sweep of the 1,000 books running every tick); per tick, the time until every
 *   socket has it (the latest arrival minus the tick's ts), after 3 warm-up ticks; against a bare
 *   ws server broadcasting a prices message to 2,000 sockets, alternating rounds, in the same run.
 *   The sockets are all read by this one process, for both.
 */
import { createDomain } from '../../shared/domain.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { WebSocket } from 'ws';
import { systemClock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { StoredApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { type TradingServices } from '../../shared/paper/trading-services.js';
import { WebhookStore } from '../../shared/push/webhook-store.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { freePort } from '../../shared/redis/embedded.js';
import { processCpuMs, startChild, startChildAt, type Child } from '../lib/harness.js';
import {
  closeAll,
  collectPositionEvents,
  connectMany,
  measureFanOut,
  percentiles,
  startBenchReceiver,
  type Percentiles,
} from '../lib/push-clients.js';
import { startBenchWorker, type BenchStack } from '../lib/stack.js';

const SYMBOLS = ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'ADA', 'AVAX'];
const FAN_OUT_SOCKETS = Number(process.env.BENCH_PUSH_SOCKETS ?? 2000);
/**
 * Ticks measured per round (two rounds per side). The tick is 500 ms on both servers (the service's
 * is 2 s): more samples in the time, with the connected-book sweep of the 1,000 books still running every tick.
 */
const FAN_OUT_TICKS = Number(process.env.BENCH_PUSH_TICKS ?? 40);
const TICK_MS = '500';
/** Set (BENCH_PUSH_FAN_OUT_ONLY=1): the fan-out rows alone, without the settlement and webhook rows before them. */
const FAN_OUT_ONLY = process.env.BENCH_PUSH_FAN_OUT_ONLY === '1';

export interface RateRow {
  name: string;
  perSecond: number;
  latency: Percentiles;
}

export interface PushResults {
  rows: RateRow[];
  /** The summaries, and each tick's latest arrival in ms (in measured order), for the JSON results. */
  fanOut: { sockets: number; ours: Percentiles; bare: Percentiles; ticks: { ours: number[]; bare: number[] }; perTick: TickCost };
}

/** What one tick of our stream cost, over its measured rounds: the API process's CPU and the quote reads Redis ran. */
export interface TickCost {
  apiCpuMs: number;
  quoteGets: number;
}

/** GET calls Redis has run so far (quote reads: the feed writes quotes, the API reads them with GET). */
async function getCalls(redis: RedisClient): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(/cmdstat_get:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

interface Trader {
  key: string;
  ctx: KeyContext;
}

async function createTraders(redis: RedisClient, count: number): Promise<Trader[]> {
  const { service, accounts, keys } = createAccountServices({ redis });
  const resolver = new StoredApiKeyResolver({ accounts, keys, clock: systemClock });
  const stamp = Date.now().toString(36);
  const out: Trader[] = [];
  for (let i = 0; i < count; i += 1) {
    const { apiKey } = await service.createKey({ email: `push-${stamp}-${count}-${i}@example.org`, plan: 'business' });
    const found = await resolver.resolve(apiKey);
    if (found === null || !('keyId' in found) || !found.context) throw new Error('bench: a new key did not resolve');
    out.push({ key: apiKey, ctx: found.context });
  }
  return out;
}

async function openPosition(trading: TradingServices, ctx: KeyContext, symbol: string): Promise<string> {
  const result = await trading.positions.open(ctx, { symbol, side: 'long', margin_usd: 100, leverage: 10 });
  if (!('position' in result) || 'dry_run' in result) throw new Error('bench: open did not fill');
  return String(result.position.id);
}

/** One open and its close: two settlements, two events. */
async function cycle(trading: TradingServices, trader: Trader, n: number): Promise<void> {
  const id = await openPosition(trading, trader.ctx, SYMBOLS[n % SYMBOLS.length]);
  await trading.closes.close(trader.ctx, { id });
}

/** Cycles as fast as `concurrency` loops go for `seconds`; resolves with the number of events made. */
async function saturate(trading: TradingServices, traders: Trader[], seconds: number, concurrency = 32): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const i = n++;
        await cycle(trading, traders[i % traders.length], i);
      }
    }),
  );
  return n * 2;
}

/** Cycles at a fixed rate (events per second, two per cycle) for `seconds`; resolves with the events made. */
async function fixedRate(trading: TradingServices, traders: Trader[], seconds: number, eventsPerSecond: number): Promise<number> {
  const started = Date.now();
  const pending: Promise<void>[] = [];
  let n = 0;
  while (Date.now() - started < seconds * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * (eventsPerSecond / 2));
    while (n < due) {
      const i = n++;
      pending.push(cycle(trading, traders[i % traders.length], i));
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(pending);
  return n * 2;
}

async function drained(count: () => number, expected: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (count() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (count() < expected) throw new Error(`bench: ${count()} of ${expected} events arrived within ${timeoutMs} ms`);
}

/** Rate over the measured window: arrivals from the start of the load to the last arrival. */
function rateRow(name: string, started: number, arrivals: number[], latencies: number[]): RateRow {
  const last = Math.max(...arrivals);
  return { name, perSecond: (arrivals.length / Math.max(1, last - started)) * 1000, latency: percentiles(latencies) };
}

async function measureEvents(trading: TradingServices, traders: Trader[], apiUrl: string, seconds: number): Promise<RateRow[]> {
  const base = apiUrl.replace(/^http/, 'ws');
  const sockets = await connectMany(
    traders.map((t) => `${base}/api/bot/v2/stream?api_key=${t.key}`),
    'snapshot',
  );
  const rows: RateRow[] = [];
  try {
    await saturate(trading, traders, 1); // warm-up
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const [name, run] of [
      ['settlement to socket, saturation', () => saturate(trading, traders, seconds)],
      ['settlement to socket, 1,000 events/s', () => fixedRate(trading, traders, seconds, 1000)],
    ] as const) {
      const events = collectPositionEvents(sockets);
      const started = Date.now();
      const made = await run();
      await drained(() => events.arrivals.length, made, 30_000);
      events.stop();
      rows.push(rateRow(name, started, events.arrivals, events.latencies));
    }
  } finally {
    closeAll(sockets);
  }
  return rows;
}

async function measureWebhooks(redis: RedisClient, trading: TradingServices, traders: Trader[], seconds: number): Promise<RateRow[]> {
  const receiver = await startBenchReceiver();
  const store = new WebhookStore(redis, configWith().webhookSecretsKey);
  for (const [i, trader] of traders.entries()) {
    const hook = {
      id: `whbench${i}`,
      url: `${receiver.url}/hook`,
      secret: `whs_bench${i}`,
      events: ['position.opened' as const, 'position.closed' as const],
      book: null,
      created: Date.now(),
    };
    await store.add(trader.ctx.accountId, hook, 50);
  }
  const rows: RateRow[] = [];
  try {
    await saturate(trading, traders, 1);
    await drained(() => receiver.arrivals.length, 1, 10_000);
    for (const [name, run] of [
      ['webhook deliveries, saturation', () => saturate(trading, traders, seconds)],
      ['webhook deliveries, 1,000 events/s', () => fixedRate(trading, traders, seconds, 1000)],
    ] as const) {
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // the warm-up's (or previous row's) stragglers
      receiver.arrivals.length = 0;
      receiver.latencies.length = 0;
      const started = Date.now();
      const made = await run();
      await drained(() => receiver.arrivals.length, made, 60_000);
      rows.push(rateRow(name, started, receiver.arrivals, receiver.latencies));
    }
  } finally {
    for (const [i, trader] of traders.entries()) await store.remove(trader.ctx.accountId, `whbench${i}`);
    await receiver.close();
  }
  return rows;
}

async function measureFanOuts(
  redis: RedisClient,
  trading: TradingServices,
  traders: Trader[],
  ours: Child,
  bare: string,
): Promise<PushResults['fanOut']> {
  for (const [i, trader] of traders.entries()) await openPosition(trading, trader.ctx, SYMBOLS[i % SYMBOLS.length]);
  const ourUrls = Array.from(
    { length: FAN_OUT_SOCKETS },
    (_, i) => `${ours.url.replace(/^http/, 'ws')}/api/bot/v2/stream?api_key=${traders[i % traders.length].key}`,
  );
  const ticks = { ours: [] as number[], bare: [] as number[] };
  const spent = { cpuMs: 0, gets: 0, ms: 0 };
  // alternating rounds, so background load on the shared machine hits both alike
  for (let round = 0; round < 2; round += 1) {
    for (const side of ['ours', 'bare'] as const) {
      const sockets: WebSocket[] = await connectMany(
        side === 'ours' ? ourUrls : Array<string>(FAN_OUT_SOCKETS).fill(bare),
        side === 'ours' ? 'snapshot' : null,
      );
      try {
        const [cpu, gets, started] = [processCpuMs(ours.process.pid) ?? 0, await getCalls(redis), Date.now()];
        ticks[side].push(...(await measureFanOut(sockets, FAN_OUT_TICKS, 120_000)));
        if (side === 'ours') {
          spent.cpuMs += (processCpuMs(ours.process.pid) ?? 0) - cpu;
          spent.gets += (await getCalls(redis)) - gets;
          spent.ms += Date.now() - started;
        }
      } finally {
        closeAll(sockets);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  const tickCount = spent.ms / Number(TICK_MS);
  const perTick = { apiCpuMs: Math.round((spent.cpuMs / tickCount) * 10) / 10, quoteGets: Math.round(spent.gets / tickCount) };
  return { sockets: FAN_OUT_SOCKETS, ours: percentiles(ticks.ours), bare: percentiles(ticks.bare), ticks, perTick };
}

export async function measurePush(stack: BenchStack, seconds: number): Promise<PushResults> {
  const common = { REDIS_URL: stack.redis.url, MARKET_SOURCE: 'sim', SIM_URL: stack.sim.url, LOG_LEVEL: 'warn' };
  const children: Child[] = [];
  const redis = createRedis(stack.redis.url);
  try {
    children.push(await startBenchWorker(stack));
    const port = await freePort();
    const fanOutApi = await startChildAt(
      'workers/main.ts',
      { ...common, ROLE: 'api', PORT: String(port), HOST: '127.0.0.1', STREAM_TICK_MS: TICK_MS },
      `http://127.0.0.1:${port}`,
      '/readyz',
    );
    children.push(fanOutApi);
    const bareWs = await startChild(
      'bench/lib/servers/bare-ws.ts',
      { BARE_WS_TICK_MS: TICK_MS },
      (line) => (JSON.parse(line) as { url?: string }).url,
    );
    children.push(bareWs);
    const config = configWith({ REDIS_URL: stack.redis.url });
    const { trading } = createDomain({ config, redis });
    const eventTraders = FAN_OUT_ONLY ? [] : await createTraders(redis, 200);
    const rows = FAN_OUT_ONLY
      ? []
      : [
          ...(await measureEvents(trading, eventTraders, stack.api.url, seconds)),
          ...(await measureWebhooks(redis, trading, eventTraders, seconds)),
        ];
    const fanOut = await measureFanOuts(redis, trading, await createTraders(redis, Math.ceil(FAN_OUT_SOCKETS / 2)), fanOutApi, bareWs.url);
    return { rows, fanOut };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await closeRedis(redis);
  }
}

export function pushTable(results: PushResults): string {
  const { fanOut } = results;
  return [
    '| push | per second | samples | median ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.perSecond)} | ${row.latency.samples} | ${row.latency.medianMs} | ${row.latency.p99Ms} | ${row.latency.maxMs} |`,
    ),
    `| price tick to all ${fanOut.sockets} sockets, our stream (per tick: latest arrival) | - | ${fanOut.ours.samples} | ${fanOut.ours.medianMs} | ${fanOut.ours.p99Ms} | ${fanOut.ours.maxMs} |`,
    `| price tick to all ${fanOut.sockets} sockets, bare ws broadcast (baseline) | - | ${fanOut.bare.samples} | ${fanOut.bare.medianMs} | ${fanOut.bare.p99Ms} | ${fanOut.bare.maxMs} |`,
    '',
    `| our stream, per ${TICK_MS} ms tick, ${fanOut.sockets} sockets (their books swept every tick too) | API CPU ms | quote GETs (prices and sweep) |`,
    '|---|---:|---:|',
    `| one tick | ${fanOut.perTick.apiCpuMs} | ${fanOut.perTick.quoteGets} |`,
  ].join('\n');
}
