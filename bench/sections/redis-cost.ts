/**
 * What each kind of request costs the Redis server in its own CPU time, read from /proc (a loaded machine stretches
 * the wall time of a run, much less the CPU a command takes): the inputs of docs/CAPACITY.md.
 *
 * On the bench stack plus one worker process (the outbox relay and the webhook processor), so the relay of an
 * operation's event is charged to the operation: paced loads through the API of one kind of request each; Redis's
 * CPU from the first request until the outboxes are drained (and, with webhooks, every delivery received), minus what
 * Redis spends idle over as long (the feed's prices, the worker's schedules, measured just before), per request
 * answered 2xx. The API process's CPU per request is reported beside it.
 */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { WebhookStore } from '../../shared/push/webhook-store.js';
import { configWith } from '../../shared/config.js';
import { median, processCpuMs, type Child } from '../lib/harness.js';
import { unrelayedOutboxEntries } from '../lib/redis-census.js';
import { btcLongOpen, createAccountKeys, createKeys, keyHeaders } from '../lib/keys.js';
import { pacedLoad, type PacedRequest } from '../lib/paced-load.js';
import { startBenchReceiver, type BenchReceiver } from '../lib/push-clients.js';
import { startBenchWorker, type BenchStack } from '../lib/stack.js';

export interface RedisCostOptions {
  rate: number;
  seconds: number;
  rounds: number;
  /** Accounts the load spreads over (one key each); as many again get a webhook for the webhook rows. */
  accounts: number;
}

export interface RedisCostRow {
  operation: string;
  /** Requests answered 2xx over the measured rounds. */
  requests: number;
  /** Median over the rounds, µs of Redis CPU per request. */
  redisUs: number;
  /** Median over the rounds, µs of the API process's CPU per request. */
  apiUs: number;
}

interface Opened {
  key: string;
  id: string;
}

interface Operation {
  name: string;
  request(i: number): PacedRequest;
  onAnswer?(i: number, status: number, body: string): void;
  /** Its accounts have a webhook: the run is over once every 2xx's delivery arrived. */
  webhooks?: boolean;
}

/** The redis-server process behind a connection (INFO's process_id): the bench's Redis runs on this machine. */
export async function redisPid(redis: RedisClient): Promise<number> {
  return Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
}

async function until(done: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} not done within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function measureRedisCost(stack: BenchStack, options: RedisCostOptions): Promise<RedisCostRow[]> {
  const redis = createRedis(stack.redis.url);
  const children: Child[] = [];
  let receiver: BenchReceiver | undefined;
  try {
    children.push(await startBenchWorker(stack));
    receiver = await startBenchReceiver();
    const pid = await redisPid(redis);
    const plain = await createKeys(stack.redis.url, options.accounts, 1);
    const withHooks = await createAccountKeys(stack.redis.url, options.accounts, 1);
    const hooked = withHooks.map((key) => key.apiKey);
    const hooks = new WebhookStore(redis, configWith().webhookSecretsKey);
    for (const [i, { accountId }] of withHooks.entries()) {
      await hooks.add(
        accountId,
        {
          id: `whcost${i}`,
          url: `${receiver.url}/hook`,
          secret: `whs_cost${i}`,
          events: ['position.opened', 'position.closed'],
          book: null,
          created: Date.now(),
        },
        50,
      );
    }
    const arrivals = receiver.arrivals;
    const operations = (): Operation[] => {
      const opened: Opened[] = [];
      const openedHooked: Opened[] = [];
      const open = (population: string[], into: Opened[], name: string, webhooks = false): Operation => {
        const keyOf = new Map<number, string>();
        return {
          name,
          request: (i) => {
            const key = population[i % population.length];
            keyOf.set(i, key);
            return btcLongOpen(key);
          },
          onAnswer: (i, status, body) => {
            const key = keyOf.get(i);
            if (key && status === 200) into.push({ key, id: (JSON.parse(body) as { position: { id: string } }).position.id });
          },
          webhooks,
        };
      };
      const close = (from: Opened[], name: string, webhooks = false): Operation => ({
        name,
        request: (i) => {
          const target = from[i % Math.max(1, from.length)] ?? { key: plain[0], id: 'none' };
          return { path: '/api/bot/v1/close', method: 'POST', headers: keyHeaders(target.key), body: JSON.stringify({ id: target.id }) };
        },
        webhooks,
      });
      return [
        open(plain, opened, 'POST /open'),
        {
          name: 'POST /sltp',
          // a stop far below BTC's price: valid for every long, and a new level each time (the position changes)
          request: (i) => {
            const target = opened[i % Math.max(1, opened.length)];
            return {
              path: '/api/bot/v1/sltp',
              method: 'POST',
              headers: keyHeaders(target.key),
              body: JSON.stringify({ id: target.id, sl: 1_000 + (i % 997) }),
            };
          },
        },
        {
          name: 'GET /positions (keyed read)',
          request: (i) => ({ path: '/api/bot/v1/positions', method: 'GET', headers: keyHeaders(plain[i % plain.length]) }),
        },
        close(opened, 'POST /close'),
        open(hooked, openedHooked, 'POST /open, one webhook', true),
        close(openedHooked, 'POST /close, one webhook', true),
      ];
    };
    const results = new Map<string, { redisUs: number[]; apiUs: number[]; requests: number }>();
    for (let round = 0; round <= options.rounds; round += 1) {
      // idle: what Redis spends with nothing asked of it, over as long as a run
      const idleStart = processCpuMs(pid) ?? 0;
      const idleAt = performance.now();
      await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
      const idlePerMs = ((processCpuMs(pid) ?? 0) - idleStart) / (performance.now() - idleAt);
      for (const operation of operations()) {
        const redisBefore = processCpuMs(pid) ?? 0;
        const apiBefore = processCpuMs(stack.api.process.pid) ?? 0;
        const started = performance.now();
        const base = arrivals.length;
        const run = await pacedLoad({
          url: stack.api.url,
          rate: options.rate,
          seconds: options.seconds,
          connections: 50,
          next: operation.request,
          onAnswer: operation.onAnswer,
        });
        await until(async () => (await unrelayedOutboxEntries(redis)) === 0, 'the outbox relay');
        if (operation.webhooks) await until(() => arrivals.length - base >= run.ok, 'the webhook deliveries');
        const elapsed = performance.now() - started;
        const redisMs = (processCpuMs(pid) ?? 0) - redisBefore - idlePerMs * elapsed;
        const apiMs = (processCpuMs(stack.api.process.pid) ?? 0) - apiBefore;
        if (round === 0 || run.ok === 0) continue; // the first round warms the JIT, the pools and the script cache
        const row = results.get(operation.name) ?? { redisUs: [], apiUs: [], requests: 0 };
        row.redisUs.push((redisMs * 1000) / run.ok);
        row.apiUs.push((apiMs * 1000) / run.ok);
        row.requests += run.ok;
        results.set(operation.name, row);
      }
    }
    return [...results.entries()].map(([operation, row]) => ({
      operation,
      requests: row.requests,
      redisUs: Math.round(median(row.redisUs)),
      apiUs: Math.round(median(row.apiUs)),
    }));
  } finally {
    await receiver?.close();
    await Promise.all(children.map((child) => child.stop()));
    await closeRedis(redis);
  }
}

export function redisCostTable(rows: readonly RedisCostRow[]): string {
  return [
    '| request (paced, its events relayed) | requests | Redis CPU µs per request | requests/s per Redis core at 100% | API CPU µs per request |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.operation} | ${r.requests} | ${r.redisUs} | ${Math.round(1e6 / Math.max(1, r.redisUs))} | ${r.apiUs} |`),
  ].join('\n');
}
