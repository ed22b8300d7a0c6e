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
  /**
   * The request (or sweep job) that caused the event, for the delivery's log lines (never sent to the receiver).
   * Optional: jobs queued by an older relay have none (docs/OPERATIONS.md, job payloads).
   */
  reqId?: string;
}

/**
 * One job per hook and outbox item: an item the relay hands over twice (it died before removing
 * it from the outbox) is not delivered twice while the first job is kept. The id is also the
 * delivery id the receiver sees (X-PD-Delivery), the same on every retry.
 */
export function webhookJobId(hookId: string, itemId: string): string {
  return `${hookId}.${itemId}`;
}
