/** The bench's view of the account outboxes (the stack's one Redis): how many entries no relay has relayed yet. */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { keys } from '../../shared/redis/keys.js';

export async function unrelayedOutboxEntries(redis: RedisClient): Promise<number> {
  let total = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keys.accountOutboxPattern, 'COUNT', 1000);
    for (const key of found) total += await redis.xlen(key);
    cursor = next;
  } while (cursor !== '0');
  return total;
}
