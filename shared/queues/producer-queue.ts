/** The queue a producer adds jobs to, on a connection of its own. */
import { Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from '../core/redis-client.js';
import { closeRedis, createBlockingRedis, redisOutages } from '../redis/connection.js';
import { QUEUE_PREFIX, type QueueName } from './queue-names.js';

export interface ProducerQueue<Data, Name extends string> {
  queue: Queue<Data, void, Name>;
  /** Closes the queue, then its connection (BullMQ does not close connections it was given); once, however often called. */
  close(): Promise<void>;
}

export function openProducerQueue<Data, Name extends string>(
  redisUrl: string,
  name: QueueName,
  defaultJobOptions: JobsOptions,
): ProducerQueue<Data, Name> {
  const connection = createBlockingRedis(redisUrl);
  const queue = new Queue<Data, void, Name>(name, { connection, prefix: QUEUE_PREFIX, defaultJobOptions });
  queue.on('error', redisOutages.onError);
  return { queue, close: closesOnce([queue], connection) };
}

/** Closes the queues, then the connection they share (BullMQ does not close connections it was given); once, however often called. */
export function closesOnce(queues: readonly Queue[], connection: RedisClient): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      try {
        await Promise.all(queues.map((queue) => queue.close()));
      } finally {
        await closeRedis(connection);
      }
    })());
}
