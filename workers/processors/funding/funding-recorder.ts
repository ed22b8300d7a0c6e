/** The funding queue's processor: records the funding of the funding time just passed (see shared/paper/funding). */
import { recordFunding } from '../../../shared/paper/funding/funding-recorder.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

export const fundingRecorder: ProcessorDefinition = {
  queue: QUEUES.funding,
  create: ({ domain, logger }) => {
    const { config, clock, marketStore: market } = domain;
    const { funding } = domain.stores;
    return {
      process: () =>
        recordFunding({
          funding,
          binanceRest: config.venueUrls.binance.rest,
          symbols: async () => (await market.listSymbols()).map((entry) => entry.symbol),
          clock,
          logger: logger.child({ queue: QUEUES.funding }),
          http: { timeoutMs: config.restTimeoutMs, attempts: 3, baseDelayMs: 500, maxDelayMs: 5_000 },
        }),
    };
  },
};
