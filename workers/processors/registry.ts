import type { Job, WorkerOptions } from 'bullmq';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/core/logger.js';
import type { Domain } from '../../shared/domain.js';
import type { QueueName } from '../../shared/queues/queue-names.js';

/** What a processor gets when the worker role builds it. */
export interface ProcessorContext {
  /** The worker role's stores and services (shared/domain.ts), with its config, connection and clock. */
  domain: Domain;
  redisUrl: string;
  logger: Logger;
}

/**
 * What a job answers when what it reads is not there yet (right after a cold start: no symbol
 * universe, no BTC price). The worker role runs it again shortly instead of at its next schedule.
 */
export interface WaitingForInputs {
  /** What is missing, for the job's result. */
  waiting: string;
}

export function isWaitingForInputs(result: unknown): result is WaitingForInputs {
  return typeof result === 'object' && result !== null && typeof (result as { waiting?: unknown }).waiting === 'string';
}

export interface Processor {
  /** `token`: the worker's lock on the job, for a processor that moves it (to delayed, say). */
  process(job: Job, token?: string, signal?: AbortSignal): Promise<unknown>;
  /** Releases what the processor opened (connections, clients). */
  close?(): Promise<void>;
}

/** One BullMQ worker: the queue it consumes and how to build its processor. */
export interface ProcessorDefinition {
  queue: QueueName;
  /** Jobs processed at once by one worker process. */
  concurrency?: number;
  /** Worker settings (job lock, stalled checks; concurrency when the config sets it), from the config. */
  workerOptions?(config: Config): Pick<WorkerOptions, 'concurrency' | 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>;
  create(ctx: ProcessorContext): Processor;
}
