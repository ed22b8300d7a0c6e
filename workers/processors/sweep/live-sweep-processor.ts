/**
 * The live sweep's processor (shared/paper/sweep: the live trigger): every symbol's live price
 * against stops, targets and liquidation prices, between candles, so a liquidation is not up to a
 * minute late. A job scheduler runs it (workers/schedules.ts), so it runs once per cluster however
 * many workers there are.
 */
import type { Job } from 'bullmq';
import { liveSweepLag, sweepSettlements } from '../../../shared/metrics/metrics.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** The spec's cadence of the sweep between candles (the stream's tick). */
export const LIVE_SWEEP_EVERY_MS = 2_000;

export const liveSweepProcessor: ProcessorDefinition = {
  queue: QUEUES.liveSweep,
  create: ({ domain: { sweep, clock }, logger }) => {
    const log = logger.child({ queue: QUEUES.liveSweep });
    return {
      process: async (job: Job) => {
        // a scheduler's job is due at its timestamp plus its delay
        liveSweepLag.set(Math.max(0, clock.now() - job.timestamp - (job.opts.delay ?? 0)) / 1000);
        // the job's id on what it settles and on its log line, as the candle sweep's
        const reqId = String(job.id);
        const report = await sweep.live.sweep(reqId);
        if (report.settled > 0) {
          sweepSettlements.inc({ trigger: 'live' }, report.settled);
          log.info({ reqId, ...report }, 'live sweep settled');
        }
        return report;
      },
    };
  },
};
