import { startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';
import { startClusterRedis } from './cluster-redis.js';

/**
 * The suite's own redis-server on a free port, with nothing on disk. Every test file reaches it
 * through testRedisUrl() and never touches another Redis. With PERPDESK_TEST_REDIS=cluster
 * (`npm run test:cluster`) it is a one-node Redis Cluster: every command and script whose keys span
 * two hash slots fails with CROSSSLOT, as it would on a real cluster.
 */
let server: EmbeddedRedis | undefined;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(60_000);
    server = process.env.PERPDESK_TEST_REDIS === 'cluster' ? await startClusterRedis() : await startEmbeddedRedis();
    process.env.PERPDESK_TEST_REDIS_URL = server.url;
  },
  async afterAll(): Promise<void> {
    await server?.stop();
  },
};
