/**
 * The demo's additions to the service (ops/demo/main.ts, run by `npm run demo`): with MARKET_SOURCE=sim
 * and ROLE=all, the simulated exchange in the same process (unless SIM_URL points at `npm run sim`), a
 * fresh demo API key, a random operator token, and the banner lines that show them.
 */
import { randomBytes } from 'node:crypto';
import { QUEUE_DASHBOARD_PATH } from '../../api/ops/queue-dashboard.js';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import type { BannerNotes, EntryOptions } from '../../workers/run-service.js';
import { startSim } from '../sim/sim-server.js';
import { DEMO_EMAIL, issueDemoKey } from './demo-key.js';

/**
 * The demo's environment: OPS_TOKEN, when not given, a random one (new at every start), so the queue dashboard is
 * there to open and open to no one who did not read the banner. Its banner line prints it only then: a token the
 * operator chose is theirs already and stays off the screen.
 */
export function demoEnv(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; generatedOpsToken: string | undefined } {
  if (env.OPS_TOKEN) return { env, generatedOpsToken: undefined };
  const token = randomBytes(24).toString('base64url');
  return { env: { ...env, OPS_TOKEN: token }, generatedOpsToken: token };
}

/** The banner's line for the queue dashboard, with the password when the demo made it up. */
function dashboardLine(apiUrl: string, generatedOpsToken: string | undefined): string {
  const password = generatedOpsToken ?? 'the OPS_TOKEN you set';
  return `ops dashboard: ${apiUrl}${QUEUE_DASHBOARD_PATH} (user ops, password ${password})`;
}

/** The banner's line for the site: where to sign in, and where the link goes without SMTP. */
function signInLine(apiUrl: string): string {
  return `site: open ${apiUrl}/signin, enter any e-mail; with no SMTP_URL the link is printed in this log (development outbox)`;
}

export function demoAddOns(generatedOpsToken?: string): EntryOptions {
  let simUrl: string | undefined;
  let demoApiKey: string | undefined;
  let opsToken: string | undefined;
  return {
    beforeRoles: async (config, logger) => {
      opsToken = config.opsToken;
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
      lines: [
        ...(demoApiKey
          ? [
              `demo API key: ${demoApiKey} (new at every demo start)`,
              `try curl -H 'X-API-Key: ${demoApiKey}' ${running.apiUrl}/api/bot/v1/usage`,
            ]
          : []),
        ...(opsToken && running.apiUrl ? [dashboardLine(running.apiUrl, generatedOpsToken)] : []),
        ...(running.apiUrl ? [signInLine(running.apiUrl)] : []),
      ],
      redisLines: [
        ...(demoApiKey ? [`try REDIS_URL=${running.redisUrl} npm run cli -- keys list --email ${DEMO_EMAIL}`] : []),
        `sign-in links (no SMTP_URL): REDIS_URL=${running.redisUrl} npm run cli -- mail outbox`,
      ],
    }),
  };
}
