import type { Config } from '../shared/core/config.js';
import { createLogger, type Logger } from '../shared/core/logger.js';
import { ShutdownSteps } from '../shared/core/shutdown.js';
import { closeRedis, createRedis, redisOutages } from '../shared/redis/connection.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../shared/redis/embedded.js';
import { startSim } from '../ops/sim/sim-server.js';
import { issueDemoKey } from '../ops/demo/demo-key.js';
import { createAccountModule } from '../shared/paper/accounts/account-service.js';
import { startApiRole } from './api-role.js';
import { startFeedRole } from './feed-role.js';
import type { RoleContext, RunningRole } from './runtime.js';
import { startWorkerRole } from './worker-role.js';

export interface RunningService {
  apiUrl: string | undefined;
  simUrl: string | undefined;
  redisUrl: string;
  /** The private redis-server's data directory (absolute), when this process started one (REDIS_URL unset). */
  redisDataDir: string | undefined;
  /** The demo's fresh API key (MARKET_SOURCE=sim with ROLE=all), printed once at start. */
  demoApiKey: string | undefined;
  logger: Logger;
  /** Stops the roles, then Redis last; `steps` names each part while it is stopping (for the shutdown deadline). */
  stop(steps?: ShutdownSteps): Promise<void>;
}

/** Starts Redis (or connects to REDIS_URL) and the roles that ROLE asks for; stop() undoes it in reverse. */
export async function startService(config: Config): Promise<RunningService> {
  const logger = createLogger(config);
  redisOutages.useLogger(logger);
  let embedded: EmbeddedRedis | undefined;
  let redisUrl = config.redisUrl;
  if (!redisUrl) {
    embedded = await startEmbeddedRedis({ dataDir: config.redisDataDir, logger });
    redisUrl = embedded.url;
  }
  // The demo's simulated exchange lives in this process; a split deployment points SIM_URL at `npm run sim`.
  const sim = config.marketSource === 'sim' && !config.simUrl && config.role === 'all' ? await startSim({ port: config.simPort, host: '127.0.0.1' }) : undefined;
  if (sim) logger.info({ url: sim.url }, 'simulated exchange started');
  const redis = createRedis(redisUrl);
  const ctx: RoleContext = { config, redisUrl, redis, logger };
  const roles: RunningRole[] = [];
  let apiUrl: string | undefined;
  const wants = (role: string): boolean => config.role === 'all' || config.role === role;
  try {
    if (wants('worker')) roles.push(await startWorkerRole(ctx));
    if (wants('feed')) roles.push(await startFeedRole(ctx));
    if (wants('api')) {
      const api = await startApiRole(ctx);
      apiUrl = api.url;
      roles.push(api);
    }
  } catch (error) {
    await Promise.allSettled(roles.reverse().map((role) => role.stop()));
    await closeRedis(redis);
    await sim?.close();
    await embedded?.stop();
    throw error;
  }
  let demoApiKey: string | undefined;
  if (config.marketSource === 'sim' && config.role === 'all') {
    try {
      demoApiKey = await issueDemoKey(createAccountModule(redis).service);
    } catch (error) {
      logger.warn({ err: error }, 'no demo API key');
    }
  }
  let stopping: Promise<void> | undefined;
  return {
    apiUrl,
    simUrl: sim?.url,
    demoApiKey,
    redisUrl,
    redisDataDir: embedded?.dataDir,
    logger,
    stop: (steps = new ShutdownSteps()) =>
      (stopping ??= (async () => {
        for (const role of [...roles].reverse()) {
          try {
            await steps.run(`${role.name} role`, () => role.stop());
          } catch (error) {
            logger.error({ err: error, role: role.name }, 'role did not stop cleanly');
          }
        }
        await steps.run('redis connection', () => closeRedis(redis));
        if (sim) await steps.run('simulated exchange', () => sim.close());
        if (embedded) {
          await steps.run('private redis-server', () => embedded.stop());
          logger.info({ url: embedded.url }, 'private redis-server stopped');
        }
        logger.info('stopped');
      })()),
  };
}
