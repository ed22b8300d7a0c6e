/** The producer side of the sweep queue: the feed adds one job per closed minute. */
import { SWEEP_JOB_OPTIONS, sweepJobId, type SweepJob } from './job-types.js';
import { openProducerQueue } from './producer-queue.js';
import { QUEUES } from './queue-names.js';

export interface SweepProducer {
  /** Adds the job with its deterministic id; a second add of the same minute is a no-op. */
  enqueue(job: SweepJob): Promise<void>;
  /** Closes the queue and its own connection (BullMQ does not close connections it was given). */
  close(): Promise<void>;
}

export function createSweepProducer(redisUrl: string): SweepProducer {
  const { queue, close } = openProducerQueue<SweepJob, 'sweep'>(redisUrl, QUEUES.sweep, SWEEP_JOB_OPTIONS);
  return {
    async enqueue(job) {
      await queue.add('sweep', job, { jobId: sweepJobId(job.symbol, job.minute) });
    },
    close,
  };
}
