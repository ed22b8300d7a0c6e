/** The queue a producer adds jobs to, on a connection of its own. */
import { Queue, type JobsOptions } from 'bullmq';
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
  let closing: Promise<void> | undefined;
  return {
    queue,
    close: () =>
      (closing ??= (async () => {
        try {
          await queue.close();
        } finally {
          await closeRedis(connection);
        }
      })()),
  };
}
