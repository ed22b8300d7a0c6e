import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createMarketStore } from '../../shared/market/market-store.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { spawnService, type ServiceProcess } from '../helpers/process.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';

const VENUES = ['binance', 'bybit', 'okx', 'bitget'] as const;

describe('feed lease failover between two feed processes', function () {
  this.timeout(90_000);
  let sim: SimHandle;
  let redis: RedisClient;
  const children: ServiceProcess[] = [];

  const spawnFeed = (): ServiceProcess => {
    const child = spawnService({
      ROLE: 'feed',
      REDIS_URL: testRedisUrl(),
      MARKET_SOURCE: 'sim',
      SIM_URL: sim.url,
      FEED_LEASE_MS: '1000',
      PRICE_FRESH_MS: '2000',
      STREAM_RECONNECT_MAX_MS: '500',
      UNIVERSE_SIZE: '10',
      LOG_LEVEL: 'warn',
    });
    children.push(child);
    return child;
  };
  /** Lease owners are `host:pid:nonce`. */
  const holders = async (): Promise<(number | undefined)[]> =>
    Promise.all(
      VENUES.map(async (v) => {
        const owner = await redis.get(keys.feedLease(v));
        return owner ? Number(owner.split(':')[1]) : undefined;
      }),
    );

  before(async () => {
    sim = await startScriptedSim();
    redis = await freshRedis();
  });

  after(async () => {
    for (const child of children) if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await closeRedis(redis);
    await sim.close();
  });

  it('lets a standby take every lease over within seconds after the active feed is killed, and prices keep updating', async () => {
    const store = createMarketStore(redis, configWith({ REDIS_URL: testRedisUrl(), MARKET_SOURCE: 'sim', SIM_URL: sim.url }));
    const first = spawnFeed();
    await waitFor(async () => (await holders()).every((pid) => pid === first.child.pid), 20_000, 'the first feed holding all four leases');
    const clients = async (): Promise<number> =>
      String(await redis.client('LIST'))
        .split('\n')
        .filter(Boolean).length;
    const baseline = await clients();
    const second = spawnFeed();
    let price = 81_000;
    await simControl(sim, 'price', { symbol: 'BTCUSDT', price });
    await waitFor(
      async () => {
        const q = await store.getQuote('BTCUSDT');
        return q?.price === price && q.venues === 4;
      },
      20_000,
      'prices from the first feed',
    );
    // the standby is up (its service and feed connections are open) and has found every lease taken
    await waitFor(async () => (await clients()) >= baseline + 2, 20_000, 'the standby connected to Redis');
    expect(await holders()).to.deep.equal(VENUES.map(() => first.child.pid));

    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await first.exit).to.equal(null);
    await waitFor(async () => (await holders()).every((pid) => pid === second.child.pid), 5_000, 'the standby holding all four leases');
    price += 250;
    await simControl(sim, 'price', { symbol: 'BTCUSDT', price });
    const q = await waitFor(
      async () => {
        const current = await store.getQuote('BTCUSDT');
        return current?.price === price && current.venues === 4 ? current : undefined;
      },
      5_000,
      'prices from the standby',
    );
    expect(q.ts).to.be.greaterThan(killedAt);
    expect(Date.now() - killedAt).to.be.below(10_000);

    second.child.kill('SIGTERM');
    expect(await second.exit).to.equal(0);
    // a clean stop releases the leases at once
    expect(await holders()).to.deep.equal(VENUES.map(() => undefined));
  });
});
