import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { RedisClient } from '../shared/core/redis-client.js';
import { systemClock } from '../shared/core/clock.js';
import { linkedSignal } from '../shared/core/linked-signal.js';
import { createDomain } from '../shared/domain.js';
import { jobDuration } from '../shared/metrics/metrics.js';
import { QUEUE_PREFIX, type QueueName } from '../shared/queues/queue-names.js';
import { closeRedis, connectionHealth, createBlockingRedis, redisOutages } from '../shared/redis/connection.js';
import { PROCESSORS } from './processors/index.js';
import { isWaitingForInputs, type Processor, type ProcessorDefinition } from './processors/registry.js';
import type { RoleContext, RunningRole } from './runtime.js';
import { schedulesFor, type ScheduleDefinition } from './schedules.js';
import { startOutboxRelay } from './start-outbox-relay.js';
import { retireSchedules } from './retire-schedules.js';
import { redisCheck } from '../api/middleware/health.js';
import { CURRENT_VERSION } from '../shared/meta/changelog.js';

/**
 * For this long after a worker starts, a job whose inputs are missing runs again every
 * COLD_START_RETRY_MS: a new deployment serves complete answers as soon as the feed has them,
 * not a schedule period later. Past it (a feed outage) jobs wait for their schedule.
 */
const COLD_START_WINDOW_MS = 120_000;
const COLD_START_RETRY_MS = 1_000;

/** The request id a job's log lines carry: the one it was queued with (a webhook's, WebhookJob.reqId), else its own id. */
function requestIdOf(job: Job | undefined): string | undefined {
  const given = (job?.data as { reqId?: unknown } | undefined)?.reqId;
  return typeof given === 'string' ? given : job?.id;
}

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
  const schedules = options.schedules ?? schedulesFor(ctx.config);
  const connections: RedisClient[] = [];
  const workers: Worker[] = [];
  const built: Processor[] = [];
  const queues = new Map<QueueName, Queue>();
  let relay: RunningRole | undefined;
  const connection = (): RedisClient => {
    const redis = createBlockingRedis(ctx.redisUrl);
    connections.push(redis);
    return redis;
  };
  const queueFor = (name: QueueName): Queue => {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: connection(), prefix: QUEUE_PREFIX });
      queue.on('error', redisOutages.onError);
      queues.set(name, queue);
    }
    return queue;
  };
  const coldStartUntil = systemClock.now() + COLD_START_WINDOW_MS;
  /** A waiting job runs again shortly; the id (one per retry period) keeps it one job however many workers ask. */
  const runAgainSoon = async (name: QueueName, job: Job): Promise<void> => {
    const data = job.data as { coldStartUntil?: number };
    const until = data.coldStartUntil ?? coldStartUntil;
    const now = systemClock.now();
    if (now >= until) return;
    await queueFor(name).add(
      job.name,
      { ...data, coldStartUntil: until },
      {
        delay: COLD_START_RETRY_MS,
        jobId: `${job.name}-inputs-${Math.floor(now / COLD_START_RETRY_MS)}`,
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  };
  /** Aborted when the role stops: every job running then, or taken after, hears it. */
  const closing = new AbortController();
  // one listener per running job (released when it ends): up to the sum of the processors' concurrencies
  setMaxListeners(0, closing.signal);
  const stop = async (): Promise<void> => {
    await relay?.stop();
    // a long job (a replay's clock) hears the abort and hands itself back to the queue, so close does not wait for it to end
    closing.abort();
    await Promise.allSettled(workers.map((worker) => worker.close()));
    await Promise.allSettled([...queues.values()].map((queue) => queue.close()));
    await Promise.allSettled(built.map((processor) => processor.close?.()));
    await closeRedis(...connections);
    logger.info('worker role stopped');
  };
  try {
    const domain = ctx.domain ?? createDomain({ config: ctx.config, redis: ctx.redis, clock: systemClock });
    for (const definition of processors) {
      const processor = definition.create({ domain, redisUrl: ctx.redisUrl, logger });
      built.push(processor);
      const completed = jobDuration.labels(definition.queue, 'completed');
      const failed = jobDuration.labels(definition.queue, 'failed');
      const run = async (job: Job, token?: string, signal?: AbortSignal): Promise<unknown> => {
        const started = performance.now();
        // the job's own signal (BullMQ's, per job) and the role's closing one, unhooked from closing when the job ends
        const aborts = linkedSignal(signal, closing.signal);
        try {
          const result = await processor.process(job, token, aborts.signal);
          completed.observe((performance.now() - started) / 1000);
          if (isWaitingForInputs(result)) await runAgainSoon(definition.queue, job);
          return result;
        } catch (error) {
          // a job moved back to delayed (DelayedError) did not fail: it runs again later
          if (!(error instanceof DelayedError)) failed.observe((performance.now() - started) / 1000);
          throw error;
        } finally {
          aborts.release();
        }
      };
      const worker = new Worker(definition.queue, run, {
        connection: connection(),
        prefix: QUEUE_PREFIX,
        // each job records the process that ran it (its processedBy, host:pid as the leases name their holder)
        name: `${hostname()}:${process.pid}`,
        concurrency: definition.concurrency ?? 1,
        ...definition.workerOptions?.(ctx.config),
      });
      // a lost Redis fails every job and errors on every reconnect: the outage log says it once
      worker.on('failed', (job, error) =>
        redisOutages.report(error, () =>
          logger.warn({ queue: definition.queue, jobId: job?.id, reqId: requestIdOf(job), err: error }, 'job failed'),
        ),
      );
      worker.on('error', (error) =>
        redisOutages.report(error, () => logger.error({ queue: definition.queue, err: error }, 'worker error')),
      );
      workers.push(worker);
    }
    for (const schedule of schedules) await queueFor(schedule.queue).upsertJobScheduler(schedule.id, schedule.repeat, schedule.job);
    if (options.schedules === undefined) {
      const retired = await retireSchedules(ctx.redis, schedules, CURRENT_VERSION);
      if (retired.length > 0) logger.info({ schedules: retired }, 'job schedulers of an earlier release removed');
    }
    // a worker can take no job without Redis: its own trouble (the API's readiness leaves Redis out: api/middleware/health.ts)
    ctx.readiness?.add('redis', redisCheck(connectionHealth(ctx.redis)));
    if (options.relay !== false) relay = await startOutboxRelay({ ...ctx, logger }, domain);
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info({ processors: processors.map((p) => p.queue), schedules: schedules.map((s) => s.id) }, 'worker role started');
  return { name: 'worker', stop };
}
