import { startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';
import { startClusterRedis } from './cluster-redis.js';

/**
 * The suite's own redis-server on a free port, with nothing on disk. Every test file reaches it
 * through testRedisUrl() and never touches another Redis. With PERPDESK_TEST_REDIS=cluster
 * (`npm run test:cluster`) it is a one-node Redis Cluster: every command and script whose keys span
 * two hash slots fails with CROSSSLOT, as it would on a real cluster. With PERPDESK_TEST_REDIS=cluster3
 * (`npm run test:cluster3`) it is a cluster of three masters reached through ioredis's Cluster client.
 */
let server: EmbeddedRedis | undefined;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(60_000);
    const topology = process.env.PERPDESK_TEST_REDIS;
    server =
      topology === 'cluster3'
        ? await startClusterRedis(3)
        : topology === 'cluster'
          ? await startClusterRedis(1)
          : await startEmbeddedRedis();
    process.env.PERPDESK_TEST_REDIS_URL = server.url;
  },
  async afterAll(): Promise<void> {
    await server?.stop();
  },
};
