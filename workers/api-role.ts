import { startApiServer } from '../api/server.js';
import { createDomain } from '../shared/domain.js';
import { closeRedis, createRedis } from '../shared/redis/connection.js';
import type { RoleContext, RunningRole } from './runtime.js';

export async function startApiRole(ctx: RoleContext): Promise<RunningRole & { url: string }> {
  // The API's own connection, without auto-pipelining: below saturation a request's commands go out
  // one event-loop turn at a time, so each would get a pipeline of its own: more CPU per trading
  // request below saturation, no gain at saturation (bench/README.md, design figures).
  const redis = createRedis(ctx.redisUrl, { enableAutoPipelining: false });
  try {
    const server = await startApiServer({ domain: createDomain({ config: ctx.config, redis }), logger: ctx.logger });
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
