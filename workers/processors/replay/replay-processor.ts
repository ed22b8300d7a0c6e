/**
 * The replay queue's processor: one long job per running replay (id: the replay id), its clock
 * (shared/paper/replay/replay-clock.ts) from the replay's frontier to the end of its day or its stop.
 * A worker that closes hands its clocks back to the queue (delayed by nothing, no attempt spent) and
 * any worker takes them up from their frontier; one that dies leaves the job to the stalled check.
 */
import { DelayedError, type Job } from 'bullmq';
import { ReplayClock } from '../../../shared/paper/replay/replay-clock.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ReplayJob } from '../../../shared/queues/replay-producer.js';
import type { ProcessorDefinition } from '../registry.js';

/** A dead worker's clocks are taken over after this (its job lock lapses and the stalled check moves them back). */
const REPLAY_LOCK_MS = 10_000;

export const replayProcessor: ProcessorDefinition = {
  queue: QUEUES.replay,
  // a clock mostly waits for its next minute: many share one process
  workerOptions: (config) => ({
    concurrency: config.replay.concurrency,
    lockDuration: REPLAY_LOCK_MS,
    stalledInterval: REPLAY_LOCK_MS,
    // a clock taken over is no failure: a lost worker must never end a replay
    maxStalledCount: 1_000,
  }),
  create: ({ domain, logger }) => {
    const clock = new ReplayClock({
      store: domain.replay.store,
      candles: domain.replay.service.candles,
      index: domain.stores.sweepIndex,
      funding: domain.stores.funding,
      clock: domain.clock,
    });
    const log = logger.child({ queue: QUEUES.replay });
    return {
      process: async (job: Job<ReplayJob>, token?: string, signal?: AbortSignal) => {
        const outcome = await clock.run(job.data, { signal });
        if (outcome === 'aborted') {
          await job.moveToDelayed(Date.now(), token);
          throw new DelayedError();
        }
        log.debug({ replayId: job.data.replayId, outcome }, 'replay clock ended');
        return { outcome };
      },
    };
  },
};
