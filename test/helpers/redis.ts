import { Cluster, Redis } from 'ioredis';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis, createRedis, masterNodes } from '../../shared/redis/connection.js';
import { scanAll } from '../../shared/redis/scan.js';

export function testRedisUrl(): string {
  const url = process.env.PERPDESK_TEST_REDIS_URL;
  if (!url) throw new Error('the suite Redis is not started (test/helpers/setup.ts)');
  return url;
}

/** A connection to the suite's Redis, emptied first so each test file starts clean. */
export async function freshRedis(): Promise<RedisClient> {
  const redis = createRedis(testRedisUrl());
  await flushRedis(redis);
  return redis;
}

/** Empties Redis: every master of a cluster (each holds its own keys; FLUSHALL reaches one). */
export async function flushRedis(redis: RedisClient): Promise<void> {
  await Promise.all((await masterNodes(redis)).map((node) => node.flushall()));
}

/** Cuts every subscriber connection (CLIENT KILL TYPE pubsub), on every master of a cluster. */
export async function killSubscribers(redis: RedisClient): Promise<void> {
  await Promise.all((await masterNodes(redis)).map((node) => node.call('CLIENT', 'KILL', 'TYPE', 'pubsub')));
}

/** The keys matching `pattern`, on every master of a cluster (KEYS reaches one). */
export function keysMatching(redis: RedisClient, pattern: string): Promise<string[]> {
  return scanAll(redis, { match: pattern, count: 1000 });
}

/**
 * Registers hooks for a describe block that empty the suite's Redis and hand `use` a connection to
 * it, once before its tests or before each of them ('each'), and close it after.
 */
export function useFreshRedis(use: (redis: RedisClient) => void = () => undefined, scope: 'all' | 'each' = 'all'): void {
  let redis: RedisClient | undefined;
  (scope === 'each' ? beforeEach : before)(async () => {
    redis = await freshRedis();
    use(redis);
  });
  (scope === 'each' ? afterEach : after)(async () => {
    if (redis) await closeRedis(redis);
  });
}

/**
 * Everything in Redis as key -> dump, to prove that a refused request changed nothing: a stream as its entries (ids and
 * fields), so an event added to an outbox shows.
 */
export async function snapshotRedis(redis: RedisClient): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  const all = await keysMatching(redis, '*');
  for (const key of all.sort()) {
    const type = await redis.type(key);
    let value: unknown;
    if (type === 'string') value = await redis.get(key);
    // field order of a hash is not data (a hashtable-encoded hash may iterate differently after a read)
    else if (type === 'hash') value = Object.fromEntries(Object.entries(await redis.hgetall(key)).sort(([a], [b]) => a.localeCompare(b)));
    else if (type === 'list') value = await redis.lrange(key, 0, -1);
    else if (type === 'set') value = (await redis.smembers(key)).sort();
    else if (type === 'zset') value = await redis.zrange(key, '0', '-1', 'WITHSCORES');
    else if (type === 'stream') value = await redis.xrange(key, '-', '+');
    else value = type;
    snapshot.set(key, JSON.stringify(value));
  }
  return snapshot;
}

/**
 * The keys two snapshots disagree on, both ways: added, removed or changed, except those `ignore` names. A refused
 * request that deletes a key shows as well as one that writes one.
 */
export function changedKeys(
  before: Map<string, string>,
  after: Map<string, string>,
  ignore: (key: string) => boolean = () => false,
): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((key) => !ignore(key) && before.get(key) !== after.get(key)).sort();
}

/** A request's own bookkeeping, which a refused request writes too: rate windows (rl:) and its key's last use and usage (:key:). */
export const isRequestBookkeeping = (key: string): boolean => key.startsWith('rl:') || key.includes(':key:');

/**
 * Reports every command the suite's Redis runs, as MONITOR sees it, until the returned stop() is called. ioredis
 * reports a command queue error for a monitor line it reads while entering monitoring mode (it sets that mode a
 * microtask after MONITOR's OK, so lines in the same read come first: commands run before this resolves) and after
 * disconnect(): neither is a command the caller issued while watching.
 */
export async function watchCommands(redis: RedisClient, onCommand: (args: string[]) => void): Promise<() => void> {
  let stopped = false;
  // on a cluster, every master's: each runs the commands of its own slots, watched from connections of their own (a
  // monitor duplicated from the client's node connection mistook other clients' HELLO lines for replies). The handlers
  // are on before MONITOR is sent: ioredis's monitor() rejects on that early queue error instead of resolving.
  const monitors = await Promise.all(
    (await masterNodes(redis)).map(async (node) => {
      const options = redis instanceof Cluster ? { port: node.options.port ?? 6379, host: node.options.host ?? '' } : node.options;
      const monitor = new Redis({ ...options, monitor: true, lazyConnect: true });
      monitor.on('error', (error: Error) => {
        if (!stopped && !error.message.startsWith('Command queue state error')) throw error;
      });
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (!stopped) onCommand(args);
      });
      const monitoring = new Promise((resolve) => monitor.once('monitoring', resolve));
      await monitor.connect();
      await monitoring;
      return monitor;
    }),
  );
  return () => {
    stopped = true;
    for (const monitor of monitors) monitor.disconnect();
  };
}
