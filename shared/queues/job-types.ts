/** Job payloads, their deterministic ids and default options. */
import type { JobsOptions } from 'bullmq';

/** A closed 1-minute candle to sweep. */
export interface SweepJob {
  symbol: string;
  /** Open time of the minute, ms. */
  minute: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** One job per symbol and minute: adding it twice is a no-op while the first one exists. */
export function sweepJobId(symbol: string, minute: number): string {
  return `sweep:${symbol}:${minute}`;
}

/**
 * Completed sweeps are kept an hour (about 30,000 jobs for 500 symbols) so a late duplicate still
 * finds its twin; the candle store itself only enqueues a minute the first time it stores it.
 */
export const SWEEP_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 3_600 },
  removeOnFail: { age: 7 * 86_400 },
};

/** One webhook delivery: the hook, its event and the exact body signed at each attempt. */
export interface WebhookJob {
  accountId: string;
  hookId: string;
  event: string;
  /** The JSON body, serialized once by the relay so every retry sends (and signs) the same bytes. */
  body: string;
}

/** Retries after the first attempt (spec: 5, with backoff). */
export const WEBHOOK_RETRIES = 5;

/**
 * One job per hook and outbox item: an item the relay hands over twice (it died before removing
 * it from the outbox) is not delivered twice while the first job is kept. The id is also the
 * delivery id the receiver sees (X-PD-Delivery), the same on every retry.
 */
export function webhookJobId(hookId: string, itemId: string): string {
  return `${hookId}.${itemId}`;
}

/**
 * Exponential backoff from the base: 30 s, 1, 2, 4, 8 minutes with the default base. Finished jobs
 * are kept 5 minutes, much longer than a relay lease, so a re-relayed item finds its twin; failed
 * ones a week, for inspection.
 */
export function webhookJobOptions(retryBaseMs: number): JobsOptions {
  return {
    attempts: 1 + WEBHOOK_RETRIES,
    backoff: { type: 'exponential', delay: retryBaseMs },
    removeOnComplete: { age: 300 },
    removeOnFail: { age: 7 * 86_400 },
  };
}
