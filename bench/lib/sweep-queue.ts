/**
 * The minute sweep as production runs it: the feed adds one job per symbol and minute to the sweep
 * queue (createSweepProducer, one add per candle; this process plays the feed), and a worker
 * process takes them (bench/lib/servers/sweep-worker.ts: the worker role's sweep worker, at its
 * concurrency). A sweep is timed from the first add to the last job's completion, as QueueEvents
 * reports it.
 */
import { Queue, QueueEvents } from 'bullmq';
import type { SweepJob } from '../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { createSweepProducer } from '../../shared/queues/sweep-producer.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { jsonUrl, startChild } from './harness.js';

export interface QueuedSweeper {
  /** Enqueues the candles and answers once every job completed: positions settled in all. */
  sweep(candles: readonly SweepJob[]): Promise<number>;
  /** Removes the completed jobs: they keep their ids for an hour (SWEEP_JOB_OPTIONS), so the same candles could not be added again. */
  clear(): Promise<void>;
  stop(): Promise<void>;
}

interface SweepResult {
  positions: { settled: number };
}

export async function startQueuedSweeper(redisUrl: string, workerCount: number): Promise<QueuedSweeper> {
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () =>
      startChild('bench/lib/servers/sweep-worker.ts', { REDIS_URL: redisUrl, LOG_LEVEL: 'warn' }, jsonUrl),
    ),
  );
  const producer = createSweepProducer(redisUrl);
  const queueConnection = createBlockingRedis(redisUrl);
  const eventsConnection = createBlockingRedis(redisUrl);
  const queue = new Queue(QUEUES.sweep, { connection: queueConnection, prefix: QUEUE_PREFIX });
  const events = new QueueEvents(QUEUES.sweep, { connection: eventsConnection, prefix: QUEUE_PREFIX });
  await events.waitUntilReady();
  return {
    async sweep(candles) {
      let pending = candles.length;
      let settled = 0;
      const done = new Promise<void>((resolve, reject) => {
        const detach = (): void => {
          events.off('completed', completed);
          events.off('failed', failed);
        };
        const completed = ({ returnvalue }: { returnvalue: unknown }): void => {
          // QueueEvents hands the return value over as it was stored: JSON text
          const result = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as SweepResult;
          settled += result.positions.settled;
          if (--pending > 0) return;
          detach();
          resolve();
        };
        const failed = ({ jobId, failedReason }: { jobId: string; failedReason: string }): void => {
          detach();
          reject(new Error(`sweep job ${jobId} failed: ${failedReason}`));
        };
        events.on('completed', completed);
        events.on('failed', failed);
      });
      await Promise.all(candles.map((candle) => producer.enqueue(candle)));
      await done;
      return settled;
    },
    async clear() {
      await queue.clean(0, 0, 'completed');
    },
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.allSettled([producer.close(), queue.close(), events.close()]);
      await closeRedis(queueConnection, eventsConnection);
    },
  };
}
