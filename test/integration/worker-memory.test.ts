import { expect } from 'chai';
import { Queue, type Job } from 'bullmq';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { testRedisUrl, useFreshRedis } from '../helpers/redis.js';

// a full collection on demand, as `node --expose-gc` gives, without restarting mocha with the flag
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** Heap in use after full collections (two: the first can leave what finalizers free for the second). */
function retainedHeap(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/**
 * The worker's memory grew with every job it ran (a per-job signal joined to the role's long-lived closing signal kept
 * a reference in it for the life of the process). This runs jobs through the real worker role, as a process does for
 * weeks, and checks what each job leaves behind once collected.
 */
describe('the worker role over many jobs', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh), 'each');

  it('keeps no memory per job it ran', async () => {
    const config = configWith({ REDIS_URL: testRedisUrl() });
    const ctx = { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) };
    let ran = 0;
    let batchDone: (() => void) | undefined;
    let batchEnd = 0;
    const processors = [
      {
        queue: QUEUES.sweep,
        concurrency: 16,
        create: () => ({
          process: async (job: Job, _token?: string, signal?: AbortSignal) => {
            // what a real processor does with its signal: listens to it while it works
            signal?.addEventListener('abort', () => undefined, { once: true });
            ran += 1;
            if (ran === batchEnd) batchDone?.();
            return job.id;
          },
        }),
      },
    ];
    const role = await startWorkerRole(ctx, { processors, schedules: [], relay: false });
    const connection = createBlockingRedis(testRedisUrl());
    const queue = new Queue(QUEUES.sweep, { connection, prefix: QUEUE_PREFIX });
    const runBatch = async (size: number): Promise<void> => {
      const done = new Promise<void>((resolve) => (batchDone = resolve));
      batchEnd = ran + size;
      const first = ran;
      for (let at = 0; at < size; at += 500) {
        const jobs = Array.from({ length: Math.min(500, size - at) }, (_, i) => ({
          name: 'probe',
          data: {},
          opts: { jobId: `probe-${first + at + i}`, removeOnComplete: true, removeOnFail: true },
        }));
        await queue.addBulk(jobs);
      }
      await done;
    };
    try {
      // warm up (BullMQ's and ioredis's buffers, the metrics' label sets, the JIT), then the heap after each batch
      await runBatch(1_000);
      const batch = 2_000;
      const heaps: number[] = [];
      for (let n = 0; n < 4; n++) {
        await runBatch(batch);
        heaps.push(retainedHeap());
      }
      // from the first measured batch to the last: a fixed cost of the first batches cancels out, a per-job one does not
      const perJob = (heaps[3] - heaps[0]) / (3 * batch);
      expect(perJob, `bytes retained per job (heap after each batch: ${heaps.join(', ')})`).to.be.below(100);
    } finally {
      await queue.close();
      await closeRedis(connection);
      await role.stop();
    }
  });
});
