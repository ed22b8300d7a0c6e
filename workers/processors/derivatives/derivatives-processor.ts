/**
 * The derivatives queue's processor: job funding, open-interest or long-short refreshes that snapshot
 * from Binance, Bybit and OKX REST (schedules in workers/schedules.ts).
 */
import { DerivativesRefresher } from '../../../shared/derivatives/derivatives-refresher.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

export const DERIVATIVE_JOBS = { funding: 'funding', openInterest: 'open-interest', longShort: 'long-short' } as const;
/** Funding and open interest move slowly; once a minute also gives the cluster model its open-interest history. */
export const FUNDING_EVERY_MS = 60_000;
export const OPEN_INTEREST_EVERY_MS = 60_000;
/** The exchanges publish account ratios per 5 minutes. */
export const LONG_SHORT_EVERY_MS = 300_000;

export const derivativesProcessor: ProcessorDefinition = {
  queue: QUEUES.derivatives,
  create: ({ domain, logger }) => {
    const { config, clock, marketStore: market, stores } = domain;
    const refresher = new DerivativesRefresher({
      store: stores.derivatives,
      rest: { binance: config.venueUrls.binance.rest, bybit: config.venueUrls.bybit.rest, okx: config.venueUrls.okx.rest },
      http: { timeoutMs: config.restTimeoutMs, attempts: 2, baseDelayMs: 250, maxDelayMs: 5_000 },
      clock,
      logger: logger.child({ queue: QUEUES.derivatives }),
      universe: async () => (await market.listSymbols()).map((entry) => entry.symbol),
      pairs: config.derivPairs,
    });
    return {
      process: (job) => {
        if (job.name === DERIVATIVE_JOBS.funding) return refresher.refreshFunding();
        if (job.name === DERIVATIVE_JOBS.openInterest) return refresher.refreshOpenInterest();
        if (job.name === DERIVATIVE_JOBS.longShort) return refresher.refreshLongShort();
        throw new Error(`derivatives: unknown job ${job.name}`);
      },
    };
  },
};
