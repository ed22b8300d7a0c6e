/** The bench's counts of what the stack's one Redis holds: unrelayed outbox entries, keys of a family. */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { keys } from '../../shared/redis/keys.js';

/** Calls `each` with every key matching `pattern` (SCAN, so a census never blocks Redis). */
async function forEachKey(redis: RedisClient, pattern: string, each: (found: string[]) => Promise<void> | void): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    await each(found);
    cursor = next;
  } while (cursor !== '0');
}

/** How many entries the account outboxes hold that no relay has relayed yet. */
export async function unrelayedOutboxEntries(redis: RedisClient): Promise<number> {
  let total = 0;
  await forEachKey(redis, keys.accountOutboxPattern, async (found) => {
    for (const key of found) total += await redis.xlen(key);
  });
  return total;
}

/** How many keys match `pattern`. */
export async function countKeys(redis: RedisClient, pattern: string): Promise<number> {
  let total = 0;
  await forEachKey(redis, pattern, (found) => {
    total += found.length;
  });
  return total;
}
