import type { RoleContext, RunningRole } from './runtime.js';

/** Long-lived exchange connections; one active feed per connector across the cluster. */
export async function startFeedRole(ctx: RoleContext): Promise<RunningRole> {
  ctx.logger.info('feed role started');
  return { name: 'feed', stop: async () => ctx.logger.info('feed role stopped') };
}
