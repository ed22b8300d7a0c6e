import type { RoleContext, RunningRole } from './runtime.js';

/** BullMQ workers and the job schedulers; later issues register their processors here. */
export async function startWorkerRole(ctx: RoleContext): Promise<RunningRole> {
  ctx.logger.info('worker role started');
  return { name: 'worker', stop: async () => ctx.logger.info('worker role stopped') };
}
