import type { Config } from '../shared/config.js';
import { createLogger, type Logger } from '../shared/core/logger.js';
import { ShutdownSteps } from '../shared/core/shutdown.js';
import { createDomain } from '../shared/domain.js';
import { closeRedis, createRedis, redisOutages } from '../shared/redis/connection.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../shared/redis/embedded.js';
import { checkEvictionPolicy } from '../shared/redis/eviction-policy.js';
import { Readiness } from '../api/middleware/health.js';
import { startApiRole } from './api-role.js';
import { startFeedRole } from './feed-role.js';
import { startProcessMetrics, type ProcessMetrics } from './metrics-listener.js';
import type { RoleContext, RunningRole } from './runtime.js';
import { startWorkerRole } from './worker-role.js';

/** Something an entry point runs in the process beside the roles (the demo's simulated exchange, ops/demo). */
export interface Companion {
  /** Names it while it is stopping (for the shutdown deadline). */
  name: string;
  stop(): Promise<void>;
}

/** What an entry point adds around the roles; workers/main.ts adds nothing, the demo (ops/demo) its exchange and key. */
export interface ServiceAddOns {
  /** Runs before the roles start; what it answers stops after them and the Redis connection, before a private redis-server. */
  beforeRoles?(config: Config, logger: Logger): Promise<Companion | undefined>;
  /** Runs once every role started, on the roles' shared connection. */
  afterRoles?(ctx: RoleContext): Promise<void>;
}

export interface RunningService {
  apiUrl: string | undefined;
  /** The METRICS_PORT listener's /metrics URL, when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  redisUrl: string;
  /** The private redis-server's data directory (absolute), when this process started one (REDIS_URL unset). */
  redisDataDir: string | undefined;
  logger: Logger;
  /** Stops the roles, then Redis last; `steps` names each part while it is stopping (for the shutdown deadline). */
  stop(steps?: ShutdownSteps): Promise<void>;
}

/** Starts Redis (or connects to REDIS_URL) and the roles that ROLE asks for; stop() undoes it in reverse. */
export async function startService(config: Config, addOns: ServiceAddOns = {}): Promise<RunningService> {
  const logger = createLogger(config);
  redisOutages.useLogger(logger);
  let embedded: EmbeddedRedis | undefined;
  let redisUrl = config.redisUrl;
  if (!redisUrl) {
    embedded = await startEmbeddedRedis({ dataDir: config.redisDataDir, appendFsync: config.redisAppendFsync, logger });
    redisUrl = embedded.url;
  }
  const companion = await addOns.beforeRoles?.(config, logger);
  const redis = createRedis(redisUrl, { commandTimeout: config.redisCommandTimeoutMs });
  const readiness = new Readiness();
  // the composition root on the shared connection, once: the metrics' sources and the worker role take theirs from it
  const domain = createDomain({ config, redis });
  const ctx: RoleContext = { config, redisUrl, redis, logger, readiness, domain };
  const roles: RunningRole[] = [];
  let apiUrl: string | undefined;
  const wants = (role: string): boolean => config.role === 'all' || config.role === role;
  let metrics: ProcessMetrics | undefined;
  try {
    if (!(await checkEvictionPolicy(redis))) logger.warn('redis: maxmemory-policy not reported by INFO memory; it must be noeviction');
    metrics = await startProcessMetrics(domain, logger, readiness);
    roles.push({ name: 'metrics', stop: () => metrics?.stop() ?? Promise.resolve() });
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
    await companion?.stop();
    await embedded?.stop();
    throw error;
  }
  await addOns.afterRoles?.(ctx);
  let stopping: Promise<void> | undefined;
  return {
    apiUrl,
    metricsUrl: metrics?.url,
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
        if (companion) await steps.run(companion.name, () => companion.stop());
        if (embedded) {
          await steps.run('private redis-server', () => embedded.stop());
          logger.info({ url: embedded.url }, 'private redis-server stopped');
        }
        logger.info('stopped');
      })()),
  };
}
