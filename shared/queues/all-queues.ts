/**
 * A Queue object for every queue of the registry (QUEUES), for those who look at queues rather than work them:
 * the operator dashboard. They share one connection of their own, duplicated from the one given (its outages go
 * to the process's outage log), so a slow dashboard query never waits behind the API's commands.
 */
import { Queue } from 'bullmq';
import { duplicateClient, type RedisClient } from '../core/redis-client.js';
import { redisOutages } from '../redis/connection.js';
import { closesOnce } from './producer-queue.js';
import { QUEUE_PREFIX, QUEUES, type QueueName } from './queue-names.js';

export interface AllQueues {
  /** One per name of QUEUES, in its order. */
  queues: Queue[];
  /** Closes the queues, then their connection (BullMQ does not close a connection it was given); once, however often called. */
  close(): Promise<void>;
}

export const ALL_QUEUE_NAMES: readonly QueueName[] = Object.values(QUEUES);

/** `connectionName` names the connection in CLIENT LIST, so an operator sees who holds it. */
export function openAllQueues(redis: RedisClient, connectionName: string): AllQueues {
  const connection = duplicateClient(redis, connectionName);
  const queues = ALL_QUEUE_NAMES.map((name) => {
    const queue = new Queue(name, { connection, prefix: QUEUE_PREFIX });
    queue.on('error', redisOutages.onError);
    return queue;
  });
  return { queues, close: closesOnce(queues, connection) };
}
