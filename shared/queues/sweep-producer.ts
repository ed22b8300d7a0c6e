/** The producer side of the sweep queue: the feed adds one job per closed minute. */
import { Queue } from 'bullmq';
import { closeRedis, createBlockingRedis, redisOutages } from '../redis/connection.js';
import { SWEEP_JOB_OPTIONS, sweepJobId, type SweepJob } from './job-types.js';
import { QUEUE_PREFIX, QUEUES } from './queue-names.js';

export interface SweepProducer {
  /** Adds the job with its deterministic id; a second add of the same minute is a no-op. */
  enqueue(job: SweepJob): Promise<void>;
  /** Closes the queue and its own connection (BullMQ does not close connections it was given). */
  close(): Promise<void>;
}

export function createSweepProducer(redisUrl: string): SweepProducer {
  const connection = createBlockingRedis(redisUrl);
  const queue = new Queue<SweepJob, void, 'sweep'>(QUEUES.sweep, {
    connection,
    prefix: QUEUE_PREFIX,
    defaultJobOptions: SWEEP_JOB_OPTIONS,
  });
  queue.on('error', redisOutages.onError);
  let closing: Promise<void> | undefined;
  return {
    async enqueue(job) {
      await queue.add('sweep', job, { jobId: sweepJobId(job.symbol, job.minute) });
    },
    close: () =>
      (closing ??= (async () => {
        try {
          await queue.close();
        } finally {
          await closeRedis(connection);
        }
      })()),
  };
}
