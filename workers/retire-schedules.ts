/**
 * Job schedulers a release no longer has are removed when its workers start: BullMQ keeps a scheduler in Redis, so one
 * dropped from SCHEDULES would otherwise add jobs forever (to a queue nobody may work any more). During a rolling
 * deploy the old release's workers still start now and then (a crash, a rescheduled pod): each scheduler records the
 * release that registered it, and a worker removes only those registered by its own release or an earlier one, never a
 * later release's.
 */
import { Queue } from 'bullmq';
import type { RedisClient } from '../shared/core/redis-client.js';
import { QUEUE_PREFIX, QUEUES } from '../shared/queues/queue-names.js';
import { keys } from '../shared/redis/keys.js';
import type { ScheduleDefinition } from './schedules.js';

/** Orders two x.y.z releases: negative when `a` is earlier. */
export function compareReleases(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) =>
    v
      .split(/[.+-]/)
      .slice(0, 3)
      .map((n) => Number(n) || 0),
  );
  for (let i = 0; i < 3; i++) if (pa![i] !== pb![i]) return pa![i]! - pb![i]!;
  return 0;
}

/**
 * Records `current` as registered by `release`, and removes from every queue of the registry the schedulers that are
 * not in it and were registered by `release` or an earlier one (or by a release before this record existed).
 * Answers the ids removed.
 */
export async function retireSchedules(redis: RedisClient, current: readonly ScheduleDefinition[], release: string): Promise<string[]> {
  const registry = keys.schedulerReleases();
  const known = await redis.hgetall(registry);
  const kept = new Set(current.map((s) => s.id));
  for (const id of kept) if (compareReleases(known[id] ?? '0.0.0', release) < 0) await redis.hset(registry, id, release);
  const removed: string[] = [];
  for (const name of Object.values(QUEUES)) {
    // on the process's own connection: a Queue given a connection leaves it open when it closes
    const queue = new Queue(name, { connection: redis, prefix: QUEUE_PREFIX });
    try {
      for (const scheduler of await queue.getJobSchedulers()) {
        const id = scheduler.key;
        if (kept.has(id) || compareReleases(known[id] ?? '0.0.0', release) > 0) continue;
        await queue.removeJobScheduler(id);
        await redis.hdel(registry, id);
        removed.push(id);
      }
    } finally {
      await queue.close();
    }
  }
  return removed;
}
