import { startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';

/**
 * The suite's own redis-server on a free port, with nothing on disk. Every test file reaches it
 * through testRedisUrl() and never touches another Redis.
 */
let server: EmbeddedRedis | undefined;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(60_000);
    server = await startEmbeddedRedis();
    process.env.PERPDESK_TEST_REDIS_URL = server.url;
  },
  async afterAll(): Promise<void> {
    await server?.stop();
  },
};
