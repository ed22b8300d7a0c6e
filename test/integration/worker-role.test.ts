// @three-masters: BullMQ job schedulers shared by workers
import { expect } from 'chai';
import { Queue, type Job } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { waitFor } from '../helpers/market-wait.js';
import { testRedisUrl, useFreshRedis } from '../helpers/redis.js';

describe('the worker role', () => {
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh), 'each');

  it('runs registered processors and keeps one scheduler per id however many workers register it', async () => {
    const config = configWith({ REDIS_URL: testRedisUrl() });
    const ctx = { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) };
    const seen: string[] = [];
    const processors = [{ queue: QUEUES.sweep, create: () => ({ process: async (job: Job) => void seen.push(String(job.name)) }) }];
    const schedules = [{ id: 'test-every', queue: QUEUES.sweep, repeat: { every: 60_000 }, job: { name: 'tick' } }];
    const first = await startWorkerRole(ctx, { processors, schedules });
    const second = await startWorkerRole(ctx, { processors, schedules });
    const inspectConnection = createBlockingRedis(testRedisUrl());
    const inspect = new Queue(QUEUES.sweep, { connection: inspectConnection, prefix: QUEUE_PREFIX });
    try {
      await waitFor(() => seen.includes('tick'), 5_000, 'the scheduled job');
      expect(await inspect.getJobSchedulers()).to.have.length(1);
      expect(seen.filter((name) => name === 'tick')).to.have.length(1);
    } finally {
      await first.stop();
      await second.stop();
      await inspect.close();
      await closeRedis(inspectConnection);
    }
  });
});
