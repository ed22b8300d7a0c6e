// @three-masters: queue counts over every master
import { strict as assert } from 'node:assert';
import { Queue } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { QUEUE_COUNTS_CACHE_MS, QueueCountsReader } from '../../shared/queues/queue-counts.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, clusterSeeds, masterNodes } from '../../shared/redis/connection.js';
import { freshRedis, testRedisUrl, watchCommands } from '../helpers/redis.js';

describe('queue counts for the metrics', () => {
  let redis: RedisClient;
  let now = 1_000_000;
  let reader: QueueCountsReader;
  before(async () => {
    redis = await freshRedis();
    reader = new QueueCountsReader(redis, () => now);
  });
  after(async () => {
    await reader?.close();
    if (redis) await closeRedis(redis);
  });

  it('reads every queue once per cache period, however many scrapes ask', async function () {
    // ioredis's MONITOR on the masters of a cluster loses track of its replies here (a "command queue state error" on
    // the queue reader's CLIENT SETNAME line): the cache this counts is the same on one server
    if (clusterSeeds(testRedisUrl())) this.skip();
    const queue = new Queue(QUEUES.webhooks, { connection: redis, prefix: QUEUE_PREFIX });
    const queueCount = Object.values(QUEUES).length;
    let reads = 0;
    // one PING per master (each monitor reports its own node's commands)
    const masters = await masterNodes(redis);
    let pings = 0;
    let sawPing: () => void = () => undefined;
    const pinged = new Promise<void>((resolve) => (sawPing = resolve));
    // getJobCounts is one script call per queue; the adds (which carry the job's name) are not reads
    const stop = await watchCommands(redis, (args) => {
      if (/^eval/i.test(args[0] ?? '') && !args.some((arg) => arg.includes('deliver'))) reads++;
      if (/^ping$/i.test(args[0] ?? '') && ++pings === masters.length) sawPing();
    });
    try {
      await queue.add('deliver', {}, { jobId: 'a' });
      const first = await Promise.all([reader.counts(), reader.counts()]);
      assert.equal(first[0]?.[QUEUES.webhooks]?.waiting, 1);
      await queue.add('deliver', {}, { jobId: 'b' });
      now += QUEUE_COUNTS_CACHE_MS - 1;
      assert.equal((await reader.counts())[QUEUES.webhooks]?.waiting, 1, 'still the cached read');
      now += 1;
      assert.equal((await reader.counts())[QUEUES.webhooks]?.waiting, 2, 'read again once the period is over');
      // a monitor reports in order: once it has the PING, it has every read before it
      await Promise.all(masters.map((node) => node.ping()));
      await pinged;
      assert.equal(reads, 2 * queueCount);
    } finally {
      stop();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
