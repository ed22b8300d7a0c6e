/**
 * The sweep queue's processor: one job per symbol and closed minute (added by the feed, id
 * sweep:<SYM>:<minute>). The candle runs through the steps below in order; each step is idempotent
 * for a candle, so a retried or duplicated job changes nothing twice.
 */
import type { Job } from 'bullmq';
import { InOrderByKey } from '../../../shared/core/in-order-by-key.js';
import { createMarketStore } from '../../../shared/market/market-store.js';
import { createOrderSweep } from '../../../shared/paper/orders/order-sweep.js';
import { createSweepService } from '../../../shared/paper/sweep/sweep-service.js';
import type { SweepJob } from '../../../shared/queues/job-types.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** One step of a closed candle: what it does with the candle, and a name for the job's result. */
export interface CandleStep {
  name: string;
  run(candle: SweepJob): Promise<unknown>;
}

/** Runs the steps in order; the job's result names what each did. */
export async function runCandleSteps(steps: readonly CandleStep[], candle: SweepJob): Promise<Record<string, unknown>> {
  const done: Record<string, unknown> = {};
  for (const step of steps) done[step.name] = await step.run(candle);
  return done;
}

/**
 * Runs each candle's steps, a symbol's candles one after another in the order given (the queue
 * gives them oldest first): a minute is decided on what the one before it left (a trailing stop
 * that minute moved is not checked against it, a resting order it filled is stamped with it).
 * Different symbols' candles run side by side.
 */
export function candleRunner(steps: readonly CandleStep[]): (candle: SweepJob) => Promise<Record<string, unknown>> {
  const bySymbol = new InOrderByKey();
  return (candle) => bySymbol.run(candle.symbol, () => runCandleSteps(steps, candle));
}

/**
 * Candles swept at once by one worker process. The minute's jobs (one per symbol) arrive together
 * and each is a few round trips, mostly waiting: with 100,000 open positions a minute of 500 jobs
 * took 243-279 ms at 64 against about 377 at 8 (bench/README.md, sweep rows). A symbol's later
 * minute taken meanwhile (a backlog, a small universe) waits for the earlier one (candleRunner).
 */
const SWEEP_CONCURRENCY = 64;

export const sweepProcessor: ProcessorDefinition = {
  queue: QUEUES.sweep,
  concurrency: SWEEP_CONCURRENCY,
  create: ({ config, redis, clock }) => {
    const positions = createSweepService({
      redis,
      market: createMarketStore(redis, config, clock),
      freshness: { freshMs: config.priceFreshMs, staleMaxMs: config.priceStaleMaxMs },
      clock,
    });
    const orders = createOrderSweep(redis, clock);
    // The steps of a candle, in order. Resting-order fills (shared/paper/orders) go first, so that
    // an order the candle fills exists before the triggers run; the new position is stamped with
    // the candle's minute, and a candle never triggers a position opened within its own minute.
    const steps: CandleStep[] = [
      { name: 'orders', run: (candle) => orders.fillCandle(candle) },
      { name: 'positions', run: (candle) => positions.sweepCandle(candle) },
    ];
    const run = candleRunner(steps);
    return { process: (job: Job<SweepJob>) => run(job.data) };
  },
};
