/**
 * The quick sweep's processor: every symbol's live price against stops, targets and liquidation
 * prices, between candles, so a liquidation is not up to a minute late. A job scheduler runs it
 * (workers/schedules.ts), so it runs once per cluster however many workers there are.
 */
import { createMarketStore } from '../../../shared/market/market-store.js';
import { createSweepService } from '../../../shared/paper/sweep/sweep-service.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** The spec's cadence of the sweep between candles (the stream's tick). */
export const QUICK_SWEEP_EVERY_MS = 2_000;

export const quickSweepProcessor: ProcessorDefinition = {
  queue: QUEUES.quickSweep,
  create: ({ config, redis, clock }) => {
    const sweep = createSweepService({
      redis,
      market: createMarketStore(redis, config, clock),
      freshness: { freshMs: config.priceFreshMs, staleMaxMs: config.priceStaleMaxMs },
      clock,
    });
    return { process: () => sweep.sweepLive() };
  },
};
