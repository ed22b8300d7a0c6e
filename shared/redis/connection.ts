import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../core/logger.js';

/**
 * Every connection (ioredis's and BullMQ's) reports a lost Redis on each reconnect attempt, and
 * ioredis prints a raw stack for each when no 'error' listener is attached. This is that listener
 * for the whole process: the first error of an outage and the recovery are logged, once each.
 */
export class RedisOutageLog {
  private logger: Logger | undefined;
  private downSince: number | undefined;

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
    this.downSince = undefined;
  };

  watch<T extends Redis>(client: T): T {
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

/**
 * One factory for every Redis connection. Auto-pipelining batches the commands issued in the same
 * tick into one write (the feed and the workers issue many at once); the API role turns it off on
 * its own connection (workers/api-role.ts).
 */
export function createRedis(url: string, options: Omit<RedisOptions, 'replyMapping'> = {}): Redis {
  return redisOutages.watch(
    new WatchedRedis(url, {
      enableAutoPipelining: true,
      maxRetriesPerRequest: 2,
      lazyConnect: false,
      ...options,
    }),
  );
}

/** BullMQ workers and blocking readers need a connection that never gives up on a command. */
export function createBlockingRedis(url: string): Redis {
  return redisOutages.watch(new WatchedRedis(url, { maxRetriesPerRequest: null, enableAutoPipelining: false }));
}

export async function closeRedis(...clients: Redis[]): Promise<void> {
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

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What ioredis rejects a command with while its connection is down, by error name or message. */
const UNREACHABLE_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);
const UNREACHABLE_MESSAGES = ['Connection is closed.', "Stream isn't writeable"];
/** Replies of a server that is up but cannot serve yet (loading its data, a failover, a cluster without a slot's node). */
const NOT_SERVING = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN) /;

/**
 * True when a command failed because Redis could not be reached (or could not serve), not because
 * of the command: the request that sent it can succeed later unchanged. Follows `cause`.
 */
export function isRedisUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (UNREACHABLE_NAMES.has(e.name) || (code !== undefined && CONNECTION_CODES.has(code))) return true;
    if (UNREACHABLE_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m)) || NOT_SERVING.test(e.message)) return true;
  }
  return false;
}
