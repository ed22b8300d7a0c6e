import { startApiServer } from '../api/server.js';
import { createApiPod } from '../shared/api-pod.js';
import { createDomain } from '../shared/domain.js';
import { closeRedis, createRedis, oneWritePerTick } from '../shared/redis/connection.js';
import type { RoleContext, RunningRole } from './runtime.js';

export async function startApiRole(ctx: RoleContext): Promise<RunningRole & { url: string }> {
  // The API's own connection, without auto-pipelining: below saturation a request's commands go out
  // one event-loop turn at a time, so each would get a pipeline of its own: more CPU per trading
  // request below saturation, no gain at saturation (bench/README.md, design figures). What one tick
  // sends still goes out in one socket write (a request's reads started together).
  const redis = createRedis(ctx.redisUrl, { enableAutoPipelining: false, commandTimeout: ctx.config.redisCommandTimeoutMs });
  oneWritePerTick(redis);
  try {
    // the composition root on this connection: the domain, and what only an API pod adds (shared/api-pod.ts)
    const domain = createDomain({ config: ctx.config, redis, logger: ctx.logger });
    const server = await startApiServer({ domain, pod: createApiPod(domain, ctx.logger), logger: ctx.logger, readiness: ctx.readiness });
    ctx.logger.info({ url: server.url }, 'api listening');
    return {
      name: 'api',
      url: server.url,
      stop: async () => {
        await server.close();
        await closeRedis(redis);
      },
    };
  } catch (error) {
    await closeRedis(redis);
    throw error;
  }
}
