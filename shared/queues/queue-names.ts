/**
 * Queue names and the prefix every queue uses. The prefix is a hash tag, so all of a queue's keys
 * land in one slot under Redis Cluster (BullMQ's scripts touch several of them at once).
 */
export const QUEUE_PREFIX = '{bull}';

export const QUEUES = {
  /** One job per symbol and closed minute: check stops, targets, liquidations against [low, high]. */
  sweep: 'sweep',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
