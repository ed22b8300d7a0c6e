import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { systemClock } from '../../shared/core/clock.js';
import { createLogger } from '../../shared/core/logger.js';
import { scrape } from '../../shared/metrics/metrics.js';
import { keys } from '../../shared/redis/keys.js';
import { LeasedConnectors } from '../../workers/streams/leased-connectors.js';
import type { ConnectorStatus, StreamConnector } from '../../workers/streams/venue-connector.js';
import { waitFor } from '../helpers/market-wait.js';
import { metricValue, parseMetrics } from '../helpers/prometheus.js';
import { useFreshRedis } from '../helpers/redis.js';

/** A connector that opens nothing: the lease, not the exchange, is under test. */
const idleConnector = (): StreamConnector => ({
  start: () => undefined,
  setSymbols: () => undefined,
  stop: () => Promise.resolve(),
  status: (): ConnectorStatus => ({ open: 1, sockets: 1, connects: 1 }),
});

const held = async (lease: string): Promise<number | undefined> =>
  metricValue(parseMetrics((await scrape()).body), 'perpdesk_feed_lease_held', { lease });

describe('feed lease metric: perpdesk_feed_lease_held', function () {
  this.timeout(15_000);
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh));

  it('reports 0 for a lease another process holds, 1 once this one takes it, and 0 after it gives it up', async () => {
    // another process holds lease-b: this one must still report the lease, at 0, so "nobody holds it" is seen
    await redis.set(keys.feedLease('lease-b'), 'another-process', 'PX', 60_000);
    const connectors = new LeasedConnectors({
      names: ['lease-a', 'lease-b'] as const,
      leaseName: (name) => name,
      create: idleConnector,
      redis,
      owner: 'this-process',
      leaseMs: 600,
      logger: createLogger({ logLevel: 'silent' }),
      clock: systemClock,
      label: 'connector',
      field: 'venue',
    });
    try {
      expect(await held('lease-a')).to.equal(0);
      expect(await held('lease-b')).to.equal(0);
      connectors.start();
      await waitFor(async () => (await held('lease-a')) === 1, 5_000, 'lease-a taken');
      expect(await held('lease-b')).to.equal(0);
      await redis.del(keys.feedLease('lease-b'));
      await waitFor(async () => (await held('lease-b')) === 1, 5_000, 'lease-b taken once free');
    } finally {
      await connectors.stop();
    }
    expect(await held('lease-a')).to.equal(0);
    expect(await held('lease-b')).to.equal(0);
  });
});
