/** The macro queue's processor: job name fear-greed, coingecko or defillama refreshes that provider's snapshots. */
import { MACRO_JOBS, type MacroJob } from '../../../shared/macro/macro-resources.js';
import { MacroRefresher } from '../../../shared/macro/macro-refresher.js';
import { createMacroProviders } from '../../../shared/macro/providers/macro-providers.js';
import { providerHttp } from '../../../shared/http/provider-http.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

const JOBS = new Set<string>(Object.values(MACRO_JOBS));
const isMacroJob = (name: string): name is MacroJob => JOBS.has(name);

export const macroProcessor: ProcessorDefinition = {
  queue: QUEUES.macro,
  create: ({ domain, logger }) => {
    const { config, clock, stores } = domain;
    const refresher = new MacroRefresher({
      store: stores.snapshots,
      providers: createMacroProviders(config.providerUrls, providerHttp(config.restTimeoutMs)),
      clock,
      logger: logger.child({ queue: QUEUES.macro }),
    });
    return {
      process: (job) => {
        if (!isMacroJob(job.name)) throw new Error(`macro: unknown job ${job.name}`);
        return refresher.run(job.name);
      },
    };
  },
};
