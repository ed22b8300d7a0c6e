/**
 * Queue names and the prefix every queue uses. The prefix is a hash tag, so all of a queue's keys
 * land in one slot under Redis Cluster (BullMQ's scripts touch several of them at once).
 */
export const QUEUE_PREFIX = '{bull}';

export const QUEUES = {
  /** One job per symbol and closed minute: check stops, targets, liquidations against [low, high]. */
  sweep: 'sweep',
  /**
   * Scheduled every 2 s: the live sweep (every symbol's live price against stops, targets and
   * liquidations, between candles). Its old name stays: the job scheduler stored under it in Redis
   * would otherwise keep adding jobs to a queue nobody works.
   */
  liveSweep: 'quick-sweep',
  /** Scheduled: scores the top perpetuals and stores the screener. */
  screener: 'screener',
  /** Scheduled: refreshes the macro providers (jobs fear-greed, coingecko, defillama). */
  macro: 'macro',
  /** Scheduled: refreshes the regional quotes (job refresh) and appends the hourly history (job history). */
  latam: 'latam',
  /** One job per funding time (00, 08, 16 UTC): record each symbol's funding rate and mark. */
  funding: 'funding',
  /** Scheduled: refreshes the funding, open-interest and long/short snapshots (jobs funding, open-interest, long-short). */
  derivatives: 'derivatives',
  /** Scheduled: expires the resting orders that did not fill within 30 days (job expire). */
  orders: 'orders',
  /** One job per webhook and outbox item (id hook.entry), added by the outbox relay: POST it, retried with backoff. */
  webhooks: 'webhooks',
  /** Scheduled every STATUS_SAMPLE_MS: samples every component for the status page's per-day availability (job sample). */
  status: 'status',
  /** Scheduled every minute: ranks the arena's current season (and the previous one until final) and stores the board (job rollup). */
  arena: 'arena',
  /** Scheduled: prunes closed trades past TRADE_RETENTION_DAYS into each book's compact counters (job prune-trades). */
  retention: 'retention',
  /** One long job per running replay (id: the replay id), added by POST /replay: its clock (shared/paper/replay/replay-clock.ts). */
  replay: 'replay',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
