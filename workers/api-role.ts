import { startApiServer } from '../api/server.js';
import type { RoleContext, RunningRole } from './runtime.js';

export async function startApiRole(ctx: RoleContext): Promise<RunningRole & { url: string }> {
  const server = await startApiServer({ config: ctx.config, redis: ctx.redis, logger: ctx.logger });
  ctx.logger.info({ url: server.url }, 'api listening');
  return { name: 'api', url: server.url, stop: () => server.close() };
}
