/** The latam queue's processor: job refresh rebuilds both regional quotes; job history appends the hourly point. */
import { providerHttp } from '../../../shared/http/provider-http.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import { LatamRefresher } from '../../../shared/latam/latam-refresher.js';
import { createLatamProviders } from '../../../shared/latam/providers/latam-providers.js';
import type { ProcessorDefinition } from '../registry.js';

export const LATAM_JOBS = { refresh: 'refresh', history: 'history' } as const;

export const latamProcessor: ProcessorDefinition = {
  queue: QUEUES.latam,
  create: ({ domain, logger }) => {
    const { config, clock, market, stores } = domain;
    const refresher = new LatamRefresher({
      store: stores.latam,
      providers: createLatamProviders(config.providerUrls, providerHttp(config.restTimeoutMs)),
      btcUsd: async () => (await market.quote('BTCUSDT')).price,
      clock,
      logger: logger.child({ queue: QUEUES.latam }),
    });
    return {
      process: async (job) => {
        if (job.name === LATAM_JOBS.refresh) {
          const result = await refresher.refresh();
          // the Brazil quote without the feed's BTC price has no agios: a cold start, run again once it exists
          return result.br.missing ? { ...result, waiting: result.br.missing } : result;
        }
        if (job.name === LATAM_JOBS.history) return refresher.recordHistory();
        throw new Error(`latam: unknown job ${job.name}`);
      },
    };
  },
};
