/** What both queue producers share: a BullMQ queue on a connection of its own, closed once. */
import { Queue, type DefaultJobOptions } from 'bullmq';
import { closeRedis, createBlockingRedis, redisOutages } from '../redis/connection.js';
import { QUEUE_PREFIX } from './queue-names.js';

export interface ProducerQueue<Data, Name extends string> {
  queue: Queue<Data, void, Name>;
  /** Closes the queue, then its connection (BullMQ does not close connections it was given); once. */
  close(): Promise<void>;
}

export function openProducerQueue<Data, Name extends string>(redisUrl: string, queueName: string, defaultJobOptions: DefaultJobOptions): ProducerQueue<Data, Name> {
  const connection = createBlockingRedis(redisUrl);
  const queue = new Queue<Data, void, Name>(queueName, { connection, prefix: QUEUE_PREFIX, defaultJobOptions });
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
