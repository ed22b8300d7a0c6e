import type { RedisClient } from '../core/redis-client.js';
import { QUEUE_STATES, type QueueCounts } from '../metrics/metrics.js';
import { openAllQueues, type AllQueues } from './all-queues.js';

/** How long one read of every queue's counts answers the scrapes that follow. */
export const QUEUE_COUNTS_CACHE_MS = 5_000;

/**
 * The job counts of every queue of the registry (queue-names.ts), for the scrape-time gauges: one
 * read serves every scrape within QUEUE_COUNTS_CACHE_MS, and scrapes meanwhile share the read in
 * flight, so many pods scraped often cost Redis one script call per queue every few seconds each.
 */
export class QueueCountsReader {
  private readonly all: AllQueues;
  private cached: { at: number; counts: Promise<QueueCounts> } | undefined;

  constructor(
    redis: RedisClient,
    private readonly now: () => number = Date.now,
    private readonly cacheMs = QUEUE_COUNTS_CACHE_MS,
  ) {
    // a connection of its own: BullMQ defines its scripts on the connection it is given, and every pipeline
    // ioredis builds on that connection then copies them (shared/redis/lua-scripts.ts says why that costs)
    this.all = openAllQueues(redis, 'perpdesk-queue-counts');
  }

  counts(): Promise<QueueCounts> {
    const now = this.now();
    if (this.cached && now - this.cached.at < this.cacheMs) return this.cached.counts;
    const counts = this.read();
    this.cached = { at: now, counts };
    // a failed read is not kept: the next scrape tries again
    counts.catch(() => {
      if (this.cached?.counts === counts) this.cached = undefined;
    });
    return counts;
  }

  close(): Promise<void> {
    return this.all.close();
  }

  private async read(): Promise<QueueCounts> {
    const all = await Promise.all(this.all.queues.map((queue) => queue.getJobCounts(...QUEUE_STATES)));
    const counts: QueueCounts = {};
    this.all.queues.forEach((queue, i) => {
      const got = all[i] ?? {};
      counts[queue.name] = { waiting: got.waiting ?? 0, active: got.active ?? 0, delayed: got.delayed ?? 0, failed: got.failed ?? 0 };
    });
    return counts;
  }
}
