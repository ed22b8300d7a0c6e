/**
 * The webhook delivery policy in one place: how long a receiver is given, when a failed delivery is retried, and when a
 * hook that keeps failing is paused. The spec: "retried 5 times with backoff"; a hook paused after 25 failures in a row.
 */
import type { JobsOptions } from 'bullmq';
import Joi from 'joi';

/** Retries after the first attempt (spec: 5, with backoff). */
export const WEBHOOK_RETRIES = 5;

/** Consecutive failed attempts after which a hook is paused (active false); the next success or a re-add resumes it. */
export const PAUSE_AFTER_FAILURES = 25;

/**
 * The settings an operator may change: the receiver's deadline per attempt (WEBHOOK_TIMEOUT_MS, 6 s), the first
 * retry's delay, doubling after (WEBHOOK_RETRY_BASE_MS, 30 s), and the job lock after which a dead worker's delivery
 * runs again (WEBHOOK_LOCK_MS, 30 s).
 */
export function webhookDeliverySchema(): Record<string, Joi.Schema> {
  return {
    WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).default(6_000),
    WEBHOOK_RETRY_BASE_MS: Joi.number().integer().min(10).default(30_000),
    WEBHOOK_LOCK_MS: Joi.number().integer().min(500).default(30_000),
  };
}

/**
 * A delivery job's retry schedule: exponential backoff from the base, 30 s, 1, 2, 4, 8 minutes with the default base.
 * Finished jobs are kept 5 minutes, much longer than a relay lease, so a re-relayed item finds its twin; failed ones a
 * week, for inspection.
 */
export function webhookJobOptions(retryBaseMs: number): JobsOptions {
  return {
    attempts: 1 + WEBHOOK_RETRIES,
    backoff: { type: 'exponential', delay: retryBaseMs },
    removeOnComplete: { age: 300 },
    removeOnFail: { age: 7 * 86_400 },
  };
}
