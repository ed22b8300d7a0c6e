import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../core/logger.js';
import { SeededCluster, type RedisClient } from '../core/redis-client.js';
import { isRedisUnreachable } from '../core/redis-unreachable.js';

export type { RedisClient } from '../core/redis-client.js';

/**
 * Every connection (ioredis's and BullMQ's) reports a lost Redis on each reconnect attempt, and
 * ioredis prints a raw stack for each when no 'error' listener is attached. This is that listener
 * for the whole process: the first error of an outage and the recovery are logged, once each.
 */
export class RedisOutageLog {
  private logger: Logger | undefined;
  private downSince: number | undefined;
  /** The last outage that ended, [from, to] ms: the status sampler counts the samples it missed then as Redis down. */
  private lastOutage: [number, number] | undefined;

  /**
   * Until a logger is given (tests, the CLI), outages are not logged: the failing commands say enough.
   * A new logger starts with no outage: one it never heard begin is not its to call over.
   */
  useLogger(logger: Logger): void {
    this.logger = logger;
    this.downSince = undefined;
  }

  readonly onError = (error: unknown): void => {
    if (!isRedisUnreachable(error)) {
      this.logger?.error({ err: error }, 'redis error');
      return;
    }
    if (this.downSince !== undefined) return;
    this.downSince = Date.now();
    const { code, message } = error as NodeJS.ErrnoException;
    this.logger?.warn({ code, reason: message }, 'redis unreachable (retrying; logged again when it is back)');
  };

  /**
   * Logs a failed operation with `log`, unless it failed for (or during) a lost connection: a
   * periodic task fails at every run then, and the outage is already logged.
   */
  report(error: unknown, log: () => void): void {
    if (isRedisUnreachable(error)) this.onError(error);
    else if (this.downSince === undefined) log();
  }

  readonly onReady = (): void => {
    if (this.downSince === undefined) return;
    this.logger?.info({ downMs: Date.now() - this.downSince }, 'redis reachable again');
    this.lastOutage = [this.downSince, Date.now()];
    this.downSince = undefined;
  };

  /** Whether Redis was unreachable from this process at some time between `from` and `to` (ms). */
  downBetween(from: number, to: number): boolean {
    if (this.downSince !== undefined && this.downSince <= to) return true;
    return this.lastOutage !== undefined && this.lastOutage[0] <= to && this.lastOutage[1] >= from;
  }

  /** A Cluster client emits 'error' and 'ready' for the cluster as a whole (its node connections report to it). */
  watch<T extends RedisClient>(client: T): T {
    client.on('error', this.onError);
    client.on('ready', this.onReady);
    return client;
  }
}

export const redisOutages = new RedisOutageLog();

/** A connection whose duplicates (subscribers, BullMQ's blocking connections) report to the outage log too. */
class WatchedRedis extends Redis {
  override duplicate<Override extends Partial<RedisOptions> | undefined = undefined>(override?: Override) {
    return redisOutages.watch(super.duplicate(override));
  }
}

/** The same for a Cluster client: BullMQ duplicates the connection it is given. */
class WatchedCluster extends SeededCluster {
  override duplicate(...args: Parameters<Cluster['duplicate']>) {
    return redisOutages.watch(super.duplicate(...args));
  }
}

/**
 * Where Redis is, as one string every process passes on (to a child process, BullMQ, the CLI): a redis:// URL for one
 * server, or `cluster:` and the URLs of one or more seed nodes of a Redis Cluster, comma-separated (config.ts builds it
 * from REDIS_URL and REDIS_CLUSTER=true).
 */
const CLUSTER_PREFIX = 'cluster:';

export function clusterAddress(seeds: string): string {
  return seeds.startsWith(CLUSTER_PREFIX) ? seeds : `${CLUSTER_PREFIX}${seeds}`;
}

/** The seed URLs of a cluster address, or undefined for one server's URL. */
export function clusterSeeds(address: string): URL[] | undefined {
  if (!address.startsWith(CLUSTER_PREFIX)) return undefined;
  return address
    .slice(CLUSTER_PREFIX.length)
    .split(',')
    .map((seed) => new URL(seed.trim()));
}

/** host:port of each node an address names (for a message naming where Redis was looked for). */
export function redisHosts(address: string): string {
  return (clusterSeeds(address) ?? [new URL(address)]).map((url) => url.host).join(',');
}

/**
 * A Cluster client on the seeds. Credentials, database-less TLS and the per-node options come from the first seed's URL
 * and `options`, applied to every node connection; retries of a node connection are the cluster's to decide.
 */
function createCluster(seeds: URL[], options: Omit<RedisOptions, 'replyMapping'>): Cluster {
  // auto-pipelining is left off: ioredis batches a tick's commands per node, and when one of them is answered MOVED (a
  // slot moved to another master) it re-sends the batch whole, which then spans two nodes and fails every command in it
  const { enableAutoPipelining: _perNode, lazyConnect, retryStrategy, ...nodeOptions } = options;
  const first = seeds[0];
  return new WatchedCluster(
    seeds.map((url) => ({ host: url.hostname, port: Number(url.port || 6379) })),
    {
      enableAutoPipelining: false,
      lazyConnect,
      clusterRetryStrategy: retryStrategy ? (times) => retryStrategy(times) : undefined,
      redisOptions: {
        ...nodeOptions,
        username: first.username ? decodeURIComponent(first.username) : undefined,
        password: first.password ? decodeURIComponent(first.password) : undefined,
        tls: first.protocol === 'rediss:' ? {} : undefined,
      },
    },
  );
}

/**
 * One factory for every Redis connection: a Cluster client for a cluster address (clusterAddress), a plain one
 * otherwise. Auto-pipelining batches the commands issued in the same tick into one write (the feed and the workers
 * issue many at once; not on a cluster: createCluster); the API role turns it off on its own connection
 * (workers/api-role.ts).
 */
export function createRedis(url: string, options: Omit<RedisOptions, 'replyMapping'> = {}): RedisClient {
  const merged = { enableAutoPipelining: true, maxRetriesPerRequest: 2, lazyConnect: false, ...options };
  const seeds = clusterSeeds(url);
  return redisOutages.watch(seeds ? createCluster(seeds, merged) : new WatchedRedis(url, merged));
}

/**
 * Every command a connection sends within one tick goes out in one socket write: the socket is corked at the tick's
 * first write and uncorked when the tick's synchronous work is done. A request's reads started together (an open's
 * price, volume and market state; a close's position, price and funding) then cost one write, not one each: on a
 * small virtual machine a write to Redis costs far more than the command (bench/README.md, round trips). Unlike
 * auto-pipelining it builds no pipeline object per batch. One server only: a Cluster client, which writes to each node
 * on its own, is left as it is.
 */
export function oneWritePerTick(redis: RedisClient): void {
  if (redis instanceof Cluster) return;
  redis.on('connect', () => {
    const socket = redis.stream;
    const write = socket.write;
    let corked = false;
    const uncork = (): void => {
      corked = false;
      socket.uncork();
    };
    socket.write = function (this: typeof socket, ...args: Parameters<typeof socket.write>) {
      if (!corked) {
        corked = true;
        socket.cork();
        process.nextTick(uncork);
      }
      return write.apply(this, args);
    } as typeof socket.write;
  });
}

/** BullMQ workers and blocking readers need a connection that never gives up on a command. */
export function createBlockingRedis(url: string): RedisClient {
  return createRedis(url, { maxRetriesPerRequest: null, enableAutoPipelining: false });
}

/** The masters of a cluster (each holds its share of the keys: a SCAN or FLUSHALL reaches one), or the one server. */
export async function masterNodes(client: RedisClient): Promise<Redis[]> {
  if (!(client instanceof Cluster)) return [client];
  // the masters are known once the client has read the slot table (a command waits for it)
  if (client.status !== 'ready') await client.ping();
  return client.nodes('master');
}

export async function closeRedis(...clients: RedisClient[]): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      if (client.status === 'end') return;
      // QUIT on a connection that is not up would wait for a reconnect that may never come
      if (client.status !== 'ready') {
        client.disconnect();
        return;
      }
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    }),
  );
}

/** A connection's state and a PING, without the connection: what the 503 gate and the readiness probe ask of it. */
export interface ConnectionHealth {
  /** True while no command can be sent (connecting, at start, still queues them). */
  down(): boolean;
  /** Whether Redis answers a PING now; a connection that is down answers at once rather than after its reconnect attempts. */
  up(): Promise<boolean>;
}

/** Connection states in which no command can be sent. */
const DOWN: ReadonlySet<string> = new Set(['reconnecting', 'close', 'end']);

export function connectionHealth(redis: RedisClient): ConnectionHealth {
  const down = (): boolean => DOWN.has(redis.status);
  return {
    down,
    up: async () =>
      !down() &&
      redis.ping().then(
        () => true,
        () => false,
      ),
  };
}
