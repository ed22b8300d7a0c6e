import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { startTestApi } from '../helpers/app.js';
import { useFreshRedis } from '../helpers/redis.js';

const HEALTHCHECK = join(import.meta.dirname, '../../ops/deploy/healthcheck.mjs');
const run = promisify(execFile);

/** The exit code of the image's HEALTHCHECK command with this environment. */
const healthcheck = (env: Record<string, string>): Promise<number> =>
  run(process.execPath, [HEALTHCHECK], { env }).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );

describe("the image's health check (ops/deploy/healthcheck.mjs)", () => {
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh));

  it("passes on a live API's /healthz and fails once nothing answers there", async () => {
    const api = await startTestApi(redis);
    const port = new URL(api.url).port;
    expect(await healthcheck({ ROLE: 'api', PORT: port })).to.equal(0);
    await api.close();
    expect(await healthcheck({ ROLE: 'api', PORT: port })).to.equal(1);
  });

  it('asks a worker process on METRICS_PORT, not PORT', async () => {
    const api = await startTestApi(redis);
    try {
      const port = new URL(api.url).port;
      // the API answers on this port, but a worker's listener would be METRICS_PORT: 1 is closed
      expect(await healthcheck({ ROLE: 'worker', PORT: port, METRICS_PORT: '1' })).to.equal(1);
      expect(await healthcheck({ ROLE: 'worker', METRICS_PORT: port })).to.equal(0);
    } finally {
      await api.close();
    }
  });
});
