import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { systemClock } from '../shared/core/clock.js';
import { QUEUE_PREFIX, type QueueName } from '../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis, isRedisConnectionError, redisOutages } from '../shared/redis/connection.js';
import { PROCESSORS } from './processors/index.js';
import type { Processor, ProcessorDefinition } from './processors/registry.js';
import type { RoleContext, RunningRole } from './runtime.js';
import { SCHEDULES, type ScheduleDefinition } from './schedules.js';
import { startOutboxRelay } from './start-outbox-relay.js';

export interface WorkerRoleOptions {
  processors?: ProcessorDefinition[];
  schedules?: ScheduleDefinition[];
  /** Run the outbox relay (shared/push) in this process; default true. */
  relay?: boolean;
}

/**
 * BullMQ workers for every registered processor, and the job schedulers. Each worker has its own
 * blocking connection (BullMQ does not close connections it is given, so stop() does).
 */
export async function startWorkerRole(ctx: RoleContext, options: WorkerRoleOptions = {}): Promise<RunningRole> {
  const logger = ctx.logger.child({ role: 'worker' });
  const processors = options.processors ?? PROCESSORS;
  const schedules = options.schedules ?? SCHEDULES;
  const connections: Redis[] = [];
  const workers: Worker[] = [];
  const built: Processor[] = [];
  const queues = new Map<QueueName, Queue>();
  let relay: RunningRole | undefined;
  const connection = (): Redis => {
    const redis = createBlockingRedis(ctx.redisUrl);
    connections.push(redis);
    return redis;
  };
  const stop = async (): Promise<void> => {
    await relay?.stop();
    await Promise.allSettled(workers.map((worker) => worker.close()));
    await Promise.allSettled([...queues.values()].map((queue) => queue.close()));
    await Promise.allSettled(built.map((processor) => processor.close?.()));
    await closeRedis(...connections);
    logger.info('worker role stopped');
  };
  try {
    for (const definition of processors) {
      const processor = definition.create({ config: ctx.config, redis: ctx.redis, redisUrl: ctx.redisUrl, logger, clock: systemClock });
      built.push(processor);
      const worker = new Worker(definition.queue, (job, token) => processor.process(job, token), {
        connection: connection(),
        prefix: QUEUE_PREFIX,
        concurrency: definition.concurrency ?? 1,
        ...definition.workerOptions?.(ctx.config),
      });
      // a lost Redis fails every job and errors on every reconnect: the outage log says it once
      worker.on('failed', (job, error) => {
        if (isRedisConnectionError(error)) redisOutages.onError(error);
        else logger.warn({ queue: definition.queue, jobId: job?.id, err: error }, 'job failed');
      });
      worker.on('error', (error) => {
        if (isRedisConnectionError(error)) redisOutages.onError(error);
        else logger.error({ queue: definition.queue, err: error }, 'worker error');
      });
      workers.push(worker);
    }
    for (const schedule of schedules) {
      let queue = queues.get(schedule.queue);
      if (!queue) {
        queue = new Queue(schedule.queue, { connection: connection(), prefix: QUEUE_PREFIX });
        queue.on('error', redisOutages.onError);
        queues.set(schedule.queue, queue);
      }
      await queue.upsertJobScheduler(schedule.id, schedule.repeat, schedule.job);
    }
    if (options.relay !== false) relay = await startOutboxRelay({ ...ctx, logger });
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info({ processors: processors.map((p) => p.queue), schedules: schedules.map((s) => s.id) }, 'worker role started');
  return { name: 'worker', stop };
}
