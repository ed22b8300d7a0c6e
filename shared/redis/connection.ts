import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../core/logger.js';
import { isRedisUnreachable } from '../core/redis-unreachable.js';

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
