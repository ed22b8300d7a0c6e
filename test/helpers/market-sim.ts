import type { RedisClient } from '../../shared/core/redis-client.js';
import { startSim, type SimHandle } from '../../ops/sim/sim-server.js';
import type { Clock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startFeedRole } from '../../workers/feed-role.js';
import type { RoleContext, RunningRole } from '../../workers/runtime.js';
import { startWorkerRole, type WorkerRoleOptions } from '../../workers/worker-role.js';
import { readAfterHooks, startTestApi, type SetByHooks, type TestApi } from './app.js';
import { freshRedis, testRedisUrl } from './redis.js';

/** The eight majors in the order the price and long/short routes list them. */
export const MAJOR_SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT', 'ADAUSDT', 'AVAXUSDT'];

export type { SimHandle };

/** The simulated exchange on a free port, prices moving only when told. */
export function startScriptedSim(): Promise<SimHandle> {
  return startSim({ port: 0, host: '127.0.0.1', mode: 'scripted', tickMs: 100 });
}

/** A scripted sim for a describe block: started before its tests, closed after them. Read `sim` inside tests. */
export function useScriptedSim(): { readonly sim: SimHandle } {
  const fixture: SetByHooks<{ sim: SimHandle }> = {};
  before(async () => {
    fixture.sim = await startScriptedSim();
  });
  after(() => fixture.sim?.close());
  return readAfterHooks('useScriptedSim', fixture);
}

/** POST /__sim/<path>; throws on a refusal so a typo in a test fails loudly. */
export async function simControl(sim: SimHandle, path: string, body: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(`${sim.url}/__sim/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`sim ${path} refused: ${JSON.stringify(json)}`);
  return json;
}

/** Prices of one scripted candle. */
export interface CandlePrices {
  symbol: string;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The sim's clock: the wall clock until closeCurrentMinute moves it on. */
export async function simNow(sim: SimHandle): Promise<number> {
  const response = await fetch(`${sim.url}/__sim/state`);
  return ((await response.json()) as { now: number }).now;
}

/**
 * Sets the candle of the sim's current minute and answers that minute: the sim closes it with these
 * prices at the minute's end (or at closeCurrentMinute), however long the caller takes meanwhile. A
 * minute that ended just before the call is closed already (the sim answers 'past'): the next one is set instead.
 */
export async function scriptCurrentCandle(sim: SimHandle, candle: CandlePrices): Promise<number> {
  for (;;) {
    const now = await simNow(sim);
    const minute = now - (now % 60_000);
    const reply = (await simControl(sim, 'candle', { ...candle, minute })) as { kind: 'current' | 'past' };
    if (reply.kind === 'current') return minute;
  }
}

/**
 * Closes the sim's current minute now instead of at its end (POST /__sim/close-minute moves the sim's clock on to
 * the next minute): every venue publishes the minute's candles closed. Answers the minute closed.
 */
export async function closeCurrentMinute(sim: SimHandle): Promise<number> {
  return ((await simControl(sim, 'close-minute', {})) as { closed: number }).closed;
}

/** The environment of the trading stacks on the sim: trades see a sim price once the feed writes it (no quote cache), fresh for 3 s. */
export const TRADING_SIM_ENV: Readonly<Record<string, string>> = {
  PRICE_FRESH_MS: '3000',
  QUOTE_CACHE_MS: '0',
  PUBLIC_RATE_LIMIT: '100000',
  FEED_LEASE_MS: '2000',
};

export interface SimStackOptions {
  /** The environment of the API and the roles, beside REDIS_URL, MARKET_SOURCE=sim and SIM_URL. */
  env: Record<string, string>;
  /** Sets the sim up before anything reads it (a price, say). */
  prepare?: (sim: SimHandle) => Promise<unknown>;
  /** Starts the feed role before the API (else a test may start it: startFeed). */
  feed?: boolean;
  /** Starts a worker role with these options before the API (else a test may start one: startWorker). */
  worker?: WorkerRoleOptions;
  /** The API's clock. */
  clock?: Clock;
}

export interface SimStack {
  readonly sim: SimHandle;
  readonly redis: RedisClient;
  readonly api: TestApi;
  /**
   * The minute the stack started in, before its feed: the feed never stores a candle of an earlier minute, so the sim's candle for one is
   * its first close.
   */
  readonly startedMinute: number;
  /** What the roles are started with: the config of `env`, the suite's Redis. */
  readonly ctx: RoleContext;
  /** Starts the feed role; it stops with the stack. */
  startFeed(): Promise<RunningRole>;
  /** Starts a worker role; it stops with the stack. */
  startWorker(options?: WorkerRoleOptions): Promise<RunningRole>;
}

/**
 * Registers before/after hooks for a describe block: the scripted sim, a freshly emptied suite
 * Redis, the roles asked for, and a real API, all on the sim; stopped in reverse after. Read the
 * fields inside tests or later hooks.
 */
export function useSimStack(options: SimStackOptions): SimStack {
  let started: { sim: SimHandle; redis: RedisClient; ctx: RoleContext; startedMinute: number; api?: TestApi } | undefined;
  const roles: RunningRole[] = [];
  const need = () => {
    if (!started) throw new Error('useSimStack: read it inside a test or a later hook');
    return started;
  };
  const track = (role: RunningRole): RunningRole => {
    roles.push(role);
    return role;
  };
  const stack: SimStack = {
    get sim() {
      return need().sim;
    },
    get redis() {
      return need().redis;
    },
    get api() {
      const { api } = need();
      if (!api) throw new Error('useSimStack: the API starts last in before');
      return api;
    },
    get startedMinute() {
      return need().startedMinute;
    },
    get ctx() {
      return need().ctx;
    },
    startFeed: async () => track(await startFeedRole(need().ctx)),
    startWorker: async (worker) => track(await startWorkerRole(need().ctx, worker)),
  };
  before(async () => {
    const startedMinute = Date.now() - (Date.now() % 60_000);
    const sim = await startScriptedSim();
    const redis = await freshRedis();
    const env = { REDIS_URL: testRedisUrl(), MARKET_SOURCE: 'sim', SIM_URL: sim.url, ...options.env };
    const config = configWith(env);
    started = { sim, redis, startedMinute, ctx: { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) } };
    await options.prepare?.(sim);
    if (options.feed) await stack.startFeed();
    if (options.worker) await stack.startWorker(options.worker);
    started.api = await startTestApi(redis, env, options.clock ? { clock: options.clock } : {});
  });
  after(async () => {
    await started?.api?.close();
    for (const role of roles.reverse()) await role.stop();
    await started?.sim.close();
    if (started) await closeRedis(started.redis);
  });
  return stack;
}
