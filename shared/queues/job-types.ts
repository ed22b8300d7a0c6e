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
