/**
 * The live sweep's processor (shared/paper/sweep: the live trigger): every symbol's live price
 * against stops, targets and liquidation prices, between candles, so a liquidation is not up to a
 * minute late. A job scheduler runs it (workers/schedules.ts), so it runs once per cluster however
 * many workers there are.
 */
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** The spec's cadence of the sweep between candles (the stream's tick). */
export const LIVE_SWEEP_EVERY_MS = 2_000;

export const liveSweepProcessor: ProcessorDefinition = {
  queue: QUEUES.liveSweep,
  create: ({ domain: { sweep } }) => ({ process: () => sweep.live.sweep() }),
};
