import type { JobSchedulerTemplateOptions } from 'bullmq';
import type { Config } from '../shared/config.js';
import { COINGECKO_EVERY_MS, DEFILLAMA_EVERY_MS, FEAR_GREED_EVERY_MS, MACRO_JOBS } from '../shared/macro/macro-resources.js';
import { QUEUES, type QueueName } from '../shared/queues/queue-names.js';
import { LATAM_EVERY_MS, LATAM_HISTORY_EVERY_MS } from '../shared/latam/latam-refresher.js';
import { SCREENER_EVERY_MS } from '../shared/screener/screener-types.js';
import {
  DERIVATIVE_JOBS,
  FUNDING_EVERY_MS,
  LONG_SHORT_EVERY_MS,
  OPEN_INTEREST_EVERY_MS,
} from './processors/derivatives/derivatives-processor.js';
import { ARENA_ROLLUP_EVERY_MS } from './processors/arena/arena-rollup-processor.js';
import { ORDER_EXPIRY_EVERY_MS } from './processors/orders/order-expiry-processor.js';
import { TRADE_PRUNE_EVERY_MS } from './processors/retention/trade-prune-processor.js';
import { LIVE_SWEEP_EVERY_MS } from './processors/sweep/live-sweep-processor.js';

/**
 * A recurring job. Registered with BullMQ's upsertJobScheduler, so it runs once per cluster
 * however many worker processes there are; an `every` scheduler's first job runs at once.
 */
export interface ScheduleDefinition {
  /** The scheduler id: stable, so re-registering on every start updates rather than duplicates. */
  id: string;
  queue: QueueName;
  repeat: { every: number } | { pattern: string; tz?: string };
  job: { name: string; data?: Record<string, unknown>; opts?: JobSchedulerTemplateOptions };
}

/** Refresh jobs run again soon anyway: keep the last few finished ones for inspection, not all of them. */
const REFRESH_JOB_OPTS: JobSchedulerTemplateOptions = { removeOnComplete: { count: 20 }, removeOnFail: { count: 50 } };

/** A refresh job every `every` ms, its finished jobs trimmed. */
function refresh(id: string, queue: QueueName, every: number, name: string): ScheduleDefinition {
  return { id, queue, repeat: { every }, job: { name, opts: REFRESH_JOB_OPTS } };
}

/** Every recurring job of the service, in one list. */
export const SCHEDULES: ScheduleDefinition[] = [
  // a minute after each hour (every funding schedule, 1 h, 4 h or 8 h, settles on the hour): what settled since the last run
  { id: 'funding-record', queue: QUEUES.funding, repeat: { pattern: '5 1 * * * *', tz: 'UTC' }, job: { name: 'record' } },
  // provider refreshes and the screener: frequent, so their finished jobs are not kept
  refresh('screener-refresh', QUEUES.screener, SCREENER_EVERY_MS, 'refresh'),
  refresh('macro-fear-greed', QUEUES.macro, FEAR_GREED_EVERY_MS, MACRO_JOBS.fearGreed),
  refresh('macro-coingecko', QUEUES.macro, COINGECKO_EVERY_MS, MACRO_JOBS.coinGecko),
  refresh('macro-defillama', QUEUES.macro, DEFILLAMA_EVERY_MS, MACRO_JOBS.defiLlama),
  refresh('latam-refresh', QUEUES.latam, LATAM_EVERY_MS, 'refresh'),
  refresh('latam-history', QUEUES.latam, LATAM_HISTORY_EVERY_MS, 'history'),
  // derivatives snapshots from Binance, Bybit and OKX REST
  refresh('derivatives-funding', QUEUES.derivatives, FUNDING_EVERY_MS, DERIVATIVE_JOBS.funding),
  refresh('derivatives-open-interest', QUEUES.derivatives, OPEN_INTEREST_EVERY_MS, DERIVATIVE_JOBS.openInterest),
  refresh('derivatives-long-short', QUEUES.derivatives, LONG_SHORT_EVERY_MS, DERIVATIVE_JOBS.longShort),
  // resting orders 30 days old expire (the job re-checks each order, so a late run is harmless)
  refresh('orders-expire', QUEUES.orders, ORDER_EXPIRY_EVERY_MS, 'expire'),
  // closed trades past the retention leave Redis, a bounded batch a run (the prune re-checks every trade's close time)
  refresh('trades-prune', QUEUES.retention, TRADE_PRUNE_EVERY_MS, 'prune-trades'),
  // the live sweep: live prices against stops, targets and liquidations between candles (43,200 runs
  // a day: none kept); the scheduler's id is stored in Redis, so it keeps its old name
  {
    id: 'sweep-quick',
    queue: QUEUES.liveSweep,
    repeat: { every: LIVE_SWEEP_EVERY_MS },
    job: { name: 'live', opts: { removeOnComplete: true, removeOnFail: { count: 50 } } },
  },
  // the arena board: the current season ranked from its tallies every minute (none of its jobs kept)
  {
    id: 'arena-rollup',
    queue: QUEUES.arena,
    repeat: { every: ARENA_ROLLUP_EVERY_MS },
    job: { name: 'rollup', opts: { removeOnComplete: true, removeOnFail: { count: 50 } } },
  },
];

/** The status sampler, every `every` ms (STATUS_SAMPLE_MS); none of its jobs kept. */
export function statusSchedule(every: number): ScheduleDefinition {
  return {
    id: 'status-sample',
    queue: QUEUES.status,
    repeat: { every },
    job: { name: 'sample', opts: { removeOnComplete: true, removeOnFail: { count: 50 } } },
  };
}

/** SCHEDULES and the ones whose period is configured: what a worker role registers by default. */
export function schedulesFor(config: Config): ScheduleDefinition[] {
  return [...SCHEDULES, statusSchedule(config.statusSampleMs)];
}
