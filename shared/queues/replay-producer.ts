/**
 * The producer side of the replay queue: POST /replay adds one long job per replay (its clock), id
 * the replay's id. The queue gets a connection of its own, opened at the first start: BullMQ defines
 * its scripts on its connection, which the domain's connection must not carry (shared/redis/lua-scripts.ts).
 */
import { Queue, type JobsOptions } from 'bullmq';
import { duplicateClient, type RedisClient } from '../core/redis-client.js';
import type { ReplayClockStarter } from '../paper/replay/replay-service.js';
import { closeRedis, redisOutages } from '../redis/connection.js';
import { QUEUE_PREFIX, QUEUES } from './queue-names.js';

/** What a replay clock job carries: the key whose replay it runs, and which replay. */
export interface ReplayJob {
  accountId: string;
  keyId: string;
  replayId: string;
}

/**
 * A clock that fails (Redis lost mid-run) is run again from its frontier, on any worker, for as long as a day could take; a completed or
 * failed one is kept an hour for the dashboard.
 */
export const REPLAY_JOB_OPTIONS: JobsOptions = {
  attempts: 1_000,
  backoff: { type: 'fixed', delay: 1_000 },
  removeOnComplete: { age: 3_600 },
  removeOnFail: { age: 3_600 },
};

export function createReplayProducer(redis: RedisClient): ReplayClockStarter & { close(): Promise<void> } {
  let queue: Queue<ReplayJob> | undefined;
  let connection: RedisClient | undefined;
  const open = (): Queue<ReplayJob> => {
    if (!queue) {
      connection = duplicateClient(redis);
      queue = new Queue<ReplayJob>(QUEUES.replay, { connection, prefix: QUEUE_PREFIX, defaultJobOptions: REPLAY_JOB_OPTIONS });
      queue.on('error', redisOutages.onError);
    }
    return queue;
  };
  return {
    async start({ id, accountId, keyId }) {
      await open().add('clock', { accountId, keyId, replayId: id }, { jobId: id });
    },
    close: async () => {
      try {
        await queue?.close();
      } finally {
        if (connection) await closeRedis(connection);
      }
    },
  };
}
