import { expect } from 'chai';
import { Readiness } from '../../api/middleware/health.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { createDomain } from '../../shared/domain.js';
import { startFeedRole } from '../../workers/feed-role.js';
import { startProcessMetrics, type ProcessMetrics } from '../../workers/metrics-listener.js';
import type { RunningRole } from '../../workers/runtime.js';
import { getJson } from '../helpers/app.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { closeRedis } from '../../shared/redis/connection.js';

interface Ready {
  ok: boolean;
  checks: Record<string, { ok: boolean; reason?: string }>;
}

describe("the feed's readiness: its exchange connections", function () {
  this.timeout(40_000);
  let sim: SimHandle;
  let redis: RedisClient;
  let feed: RunningRole;
  let metrics: ProcessMetrics;
  let readyz: string;

  before(async () => {
    sim = await startScriptedSim();
    redis = await freshRedis();
    const config = configWith({
      REDIS_URL: testRedisUrl(),
      MARKET_SOURCE: 'sim',
      SIM_URL: sim.url,
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      FEED_LEASE_MS: '2000',
      STREAM_RECONNECT_MAX_MS: '300',
      LOG_LEVEL: 'silent',
    });
    const logger = createLogger(config);
    const readiness = new Readiness();
    metrics = await startProcessMetrics(createDomain({ config, redis }), logger, readiness);
    readyz = metrics.url!.replace(/\/metrics$/, '/readyz');
    feed = await startFeedRole({ config, redisUrl: testRedisUrl(), redis, logger, readiness });
  });
  after(async () => {
    await feed?.stop();
    await metrics?.stop();
    await sim?.close();
    if (redis) await closeRedis(redis);
  });

  const ready = () => getJson<Ready>(readyz);

  it('is ready once every connector it holds is connected, unready naming the exchange while one is down, and ready again after', async () => {
    await waitFor(async () => (await ready()).status === 200, 20_000, 'the feed connected');
    await simControl(sim, 'provider', { name: 'okx', down: true });
    const down = await waitFor(
      async () => {
        const answer = await ready();
        return answer.status === 503 && answer;
      },
      10_000,
      'unready while okx is down',
    );
    expect(down.body.ok).to.equal(false);
    expect(down.body.checks['exchange connections']?.reason).to.match(/\bokx\b/);
    await simControl(sim, 'provider', { name: 'okx', down: false });
    await waitFor(async () => (await ready()).status === 200, 15_000, 'ready again once okx is back');
  });
});
