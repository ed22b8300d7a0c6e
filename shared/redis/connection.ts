import { Redis, type RedisOptions } from 'ioredis';

/**
 * One factory for every Redis connection. Auto-pipelining batches the commands issued in the same
 * tick into one write (the feed and the workers issue many at once); the API role turns it off on
 * its own connection (workers/api-role.ts).
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
    lazyConnect: false,
    ...options,
  });
}

/** BullMQ workers and blocking readers need a connection that never gives up on a command. */
export function createBlockingRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: false });
}

export async function closeRedis(...clients: Redis[]): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      if (client.status === 'end') return;
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    }),
  );
}
