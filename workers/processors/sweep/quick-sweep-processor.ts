/**
 * The quick sweep's processor: every symbol's live price against stops, targets and liquidation
 * prices, between candles, so a liquidation is not up to a minute late. A job scheduler runs it
 * (workers/schedules.ts), so it runs once per cluster however many workers there are.
 */
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** The spec's cadence of the sweep between candles (the stream's tick). */
export const QUICK_SWEEP_EVERY_MS = 2_000;

export const quickSweepProcessor: ProcessorDefinition = {
  queue: QUEUES.quickSweep,
  create: ({ domain: { sweep } }) => ({ process: () => sweep.sweepLive() }),
};
