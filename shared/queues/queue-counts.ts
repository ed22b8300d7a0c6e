import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_STATES, type QueueCounts } from '../metrics/metrics.js';
import { redisOutages } from '../redis/connection.js';
import { QUEUE_PREFIX, QUEUES } from './queue-names.js';

/** How long one read of every queue's counts answers the scrapes that follow. */
export const QUEUE_COUNTS_CACHE_MS = 5_000;

/**
 * The job counts of every queue of the registry (queue-names.ts), for the scrape-time gauges: one
 * read serves every scrape within QUEUE_COUNTS_CACHE_MS, and scrapes meanwhile share the read in
 * flight, so many pods scraped often cost Redis one script call per queue every few seconds each.
 */
export class QueueCountsReader {
  private readonly queues: Queue[];
  private cached: { at: number; counts: Promise<QueueCounts> } | undefined;

  constructor(
    redis: Redis,
    private readonly now: () => number = Date.now,
    private readonly cacheMs = QUEUE_COUNTS_CACHE_MS,
  ) {
    this.queues = Object.values(QUEUES).map((name) => {
      const queue = new Queue(name, { connection: redis, prefix: QUEUE_PREFIX });
      queue.on('error', redisOutages.onError);
      return queue;
    });
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

  close(): Promise<unknown> {
    return Promise.allSettled(this.queues.map((queue) => queue.close()));
  }

  private async read(): Promise<QueueCounts> {
    const all = await Promise.all(this.queues.map((queue) => queue.getJobCounts(...QUEUE_STATES)));
    const counts: QueueCounts = {};
    this.queues.forEach((queue, i) => {
      const got = all[i] ?? {};
      counts[queue.name] = { waiting: got.waiting ?? 0, active: got.active ?? 0, delayed: got.delayed ?? 0, failed: got.failed ?? 0 };
    });
    return counts;
  }
}
