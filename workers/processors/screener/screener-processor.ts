/** The screener queue's processor: one run scores the top perpetuals and stores the result (see shared/screener). */
import { QUEUES } from '../../../shared/queues/queue-names.js';
import { runScreener } from '../../../shared/screener/screener-runner.js';
import type { ProcessorDefinition } from '../registry.js';

export const screenerProcessor: ProcessorDefinition = {
  queue: QUEUES.screener,
  create: ({ domain, logger }) => {
    // the service's own work: its history requests do not spend the budget of the calls users drive
    const { config, clock, serviceMarket: market, screener } = domain;
    const log = logger.child({ queue: QUEUES.screener });
    return {
      process: async (_job, _token, signal) => {
        // right after a cold start the feed has not built the universe yet: nothing to score, nothing failed
        if ((await market.symbols()).length === 0) return { rows: 0, waiting: 'symbol universe' };
        // a run the worker's shutdown cut short is not stored (nor counted a failure): the next run scores every symbol
        const stopped = { rows: 0, stopped: 'worker stopping' };
        try {
          const result = await runScreener(market, {
            size: config.screenerSize,
            intervalMinutes: config.screenerIntervalMinutes,
            now: clock.now(),
            signal,
          });
          if (signal?.aborted) return stopped;
          await screener.save(result);
          if (result.skipped.length > 0) log.info({ skipped: result.skipped.length }, 'screener: some symbols could not be scored');
          return { rows: result.rows.length, skipped: result.skipped.length };
        } catch (error) {
          if (signal?.aborted) return stopped;
          await screener.saveFailure(error, clock.now());
          throw error;
        }
      },
    };
  },
};
