/** The retention queue's processor: prunes closed trades past TRADE_RETENTION_DAYS (scheduled, once per cluster). */
import { pruneLimits, TradePrune } from '../../../shared/paper/positions/trade-prune.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** How often the prune runs: each run is bounded (TRADE_PRUNE_PER_RUN), a backlog goes on at the next. */
export const TRADE_PRUNE_EVERY_MS = 60_000;

export const tradePruneProcessor: ProcessorDefinition = {
  queue: QUEUES.retention,
  create: ({ domain, logger }) => {
    const prune = new TradePrune(domain.redis, domain.config.tradeRetentionDays);
    const limits = pruneLimits(domain.config.tradePrunePerRun);
    const log = logger.child({ queue: QUEUES.retention });
    return {
      process: async () => {
        const run = await prune.run(domain.clock.now(), limits);
        if (run.trades > 0 || run.unread > 0) log.info(run, 'closed trades past the retention pruned');
        return run;
      },
    };
  },
};
