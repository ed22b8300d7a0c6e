/**
 * The demo's additions to the service (ops/demo/main.ts, run by `npm run demo`): with MARKET_SOURCE=sim
 * and ROLE=all, the simulated exchange in the same process (unless SIM_URL points at `npm run sim`), a
 * fresh demo API key, and the banner lines that show both.
 */
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import type { BannerNotes, EntryOptions } from '../../workers/run-service.js';
import { startSim } from '../sim/sim-server.js';
import { DEMO_EMAIL, issueDemoKey } from './demo-key.js';

export function demoAddOns(): EntryOptions {
  let simUrl: string | undefined;
  let demoApiKey: string | undefined;
  return {
    beforeRoles: async (config, logger) => {
      if (config.marketSource !== 'sim' || config.simUrl || config.role !== 'all') return undefined;
      const sim = await startSim({ port: config.simPort, host: '127.0.0.1' });
      simUrl = sim.url;
      logger.info({ url: sim.url }, 'simulated exchange started');
      return { name: 'simulated exchange', stop: () => sim.close() };
    },
    afterRoles: async ({ config, redis, logger }) => {
      if (config.marketSource !== 'sim' || config.role !== 'all') return;
      try {
        demoApiKey = await issueDemoKey(createAccountServices({ redis }).service);
      } catch (error) {
        logger.warn({ err: error }, 'no demo API key');
      }
    },
    banner: (running): BannerNotes => ({
      market: simUrl ? `, simulated market at ${simUrl} (control plane: POST ${simUrl}/__sim/price)` : '',
      lines: demoApiKey
        ? [
            `demo API key: ${demoApiKey} (new at every demo start)`,
            `try curl -H 'X-API-Key: ${demoApiKey}' ${running.apiUrl}/api/bot/v1/usage`,
          ]
        : [],
      redisLines: demoApiKey ? [`try REDIS_URL=${running.redisUrl} npm run cli -- keys list --email ${DEMO_EMAIL}`] : [],
    }),
  };
}
