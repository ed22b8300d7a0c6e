/**
 * The candle sweep's processor (shared/paper/sweep: the candle trigger): one job per symbol and closed minute (added by the feed, id
 * sweep:<SYM>:<minute>). The candle runs through the steps below in order; each step is idempotent
 * for a candle, so a retried or duplicated job changes nothing twice.
 */
import { DelayedError, Queue, type Job } from 'bullmq';
import { InOrderByKey } from '../../../shared/core/in-order-by-key.js';
import { minuteSweepDuration, sweepSettlements } from '../../../shared/metrics/metrics.js';
import type { SweepReport } from '../../../shared/paper/sweep/sweep-settler.js';
import type { SweepJob } from '../../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../../shared/queues/queue-names.js';
import { redisOutages } from '../../../shared/redis/connection.js';
import type { ProcessorDefinition } from '../registry.js';
import { MinuteOrder, type MinuteGate } from './minute-order.js';

/**
 * One step of a closed candle: what it does with the candle, and a name for the job's result. `reqId`: the job's id,
 * which the changes it makes carry into the outbox (BookRef.reqId).
 */
export interface CandleStep {
  name: string;
  run(candle: SweepJob, reqId?: string): Promise<unknown>;
}

/** Runs the steps in order; the job's result names what each did. */
export async function runCandleSteps(steps: readonly CandleStep[], candle: SweepJob, reqId?: string): Promise<Record<string, unknown>> {
  const done: Record<string, unknown> = {};
  for (const step of steps) done[step.name] = await step.run(candle, reqId);
  return done;
}

/** Thrown by a candleRunner run whose candle must wait for an earlier minute of its symbol. */
export class EarlierMinutePending extends Error {
  constructor(candle: SweepJob) {
    super(`sweep: an earlier minute of ${candle.symbol} than ${candle.minute} is still to be swept`);
  }
}

/**
 * Runs each candle's steps, a symbol's candles one after another in the order given (the queue
 * gives them oldest first): a minute is decided on what the one before it left (a trailing stop
 * that minute moved is not checked against it, a resting order it filled is stamped with it).
 * Different symbols' candles run side by side. The gate orders them across processes
 * (minute-order.ts): a candle it holds back fails with EarlierMinutePending before any step ran.
 */
export function candleRunner(
  steps: readonly CandleStep[],
  gate?: MinuteGate,
): (candle: SweepJob, reqId?: string) => Promise<Record<string, unknown>> {
  const bySymbol = new InOrderByKey();
  return (candle, reqId) =>
    bySymbol.run(candle.symbol, async () => {
      if (gate && (await gate.mustWait(candle))) throw new EarlierMinutePending(candle);
      const done = await runCandleSteps(steps, candle, reqId);
      gate?.swept(candle);
      return done;
    });
}

/**
 * Candles swept at once by one worker process. The minute's jobs (one per symbol) arrive together
 * and each is a few round trips, mostly waiting, so many at once overlap their waits (64 against
 * 8: bench/README.md, design figures). A symbol's later
 * minute taken meanwhile (a backlog, a small universe) waits for the earlier one (candleRunner).
 */
const SWEEP_CONCURRENCY = 64;

/** How long a candle held back by an earlier minute of its symbol waits before it asks again. */
const EARLIER_MINUTE_WAIT_MS = 200;

export const candleSweepProcessor: ProcessorDefinition = {
  queue: QUEUES.sweep,
  concurrency: SWEEP_CONCURRENCY,
  create: ({ domain, logger }) => {
    const { redis, marketStore: market, sweep, orderSweep: orders } = domain;
    const positions = sweep.candle;
    // The steps of a candle, in order. Resting-order fills (shared/paper/orders) go first, so that
    // an order the candle fills exists before the triggers run; the new position is stamped with
    // the candle's minute, and a candle never triggers a position opened within its own minute.
    const steps: CandleStep[] = [
      { name: 'orders', run: (candle, reqId) => orders.fillCandle(candle, reqId) },
      { name: 'positions', run: (candle, reqId) => positions.sweep([candle], reqId) },
    ];
    const log = logger.child({ queue: QUEUES.sweep });
    const jobs = new Queue<SweepJob>(QUEUES.sweep, { connection: redis, prefix: QUEUE_PREFIX });
    jobs.on('error', redisOutages.onError);
    const run = candleRunner(steps, new MinuteOrder(market, jobs));
    return {
      process: async (job: Job<SweepJob>, token?: string) => {
        try {
          const started = performance.now();
          // the job's id goes on the outbox entries of what it changes, and on its log line: a settlement's webhook
          // delivery logs the same reqId (docs/OPERATIONS.md, Logs)
          const reqId = String(job.id);
          const done = await run(job.data, reqId);
          minuteSweepDuration.observe((performance.now() - started) / 1000);
          const settled = (done.positions as Partial<SweepReport> | undefined)?.settled ?? 0;
          const filled = (done.orders as { filled?: number } | undefined)?.filled ?? 0;
          if (settled > 0) sweepSettlements.inc({ trigger: 'candle' }, settled);
          // only a candle that changed something is logged at info: 500 symbols a minute would flood it
          log[settled + filled > 0 ? 'info' : 'debug'](
            { reqId, symbol: job.data.symbol, minute: job.data.minute, ...done },
            'candle swept',
          );
          return done;
        } catch (error) {
          if (!(error instanceof EarlierMinutePending)) throw error;
          // BullMQ's way to retry later without spending an attempt
          await job.moveToDelayed(Date.now() + EARLIER_MINUTE_WAIT_MS, token);
          throw new DelayedError();
        }
      },
      close: () => jobs.close(),
    };
  },
};
