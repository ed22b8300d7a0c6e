// @three-masters: Redis pub/sub across nodes
import { expect } from 'chai';
import { subscriberClient, type RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { LatestTicks } from '../../shared/market/latest-ticks.js';
import { createMarketStore } from '../../shared/market/market-store.js';
import type { PriceTickMessage } from '../../shared/market/types.js';
import { freshnessRules } from '../../shared/market/quote-freshness.js';
import { LivePrices } from '../../shared/paper/markets/live-prices.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, watchCommands } from '../helpers/redis.js';

describe("a pod's latest ticks (Redis)", () => {
  const config = configWith({});
  const freshness = freshnessRules(config);
  const start = Date.now();
  let now = start;
  const clock = { now: () => now };
  let redis: RedisClient;
  let ticks: LatestTicks;
  beforeEach(async () => {
    now = start;
    redis = await freshRedis();
    ticks = new LatestTicks({
      subscriber: subscriberClient(redis),
      market: createMarketStore(redis, config, clock),
      clock,
      freshness,
      onError: (error) => {
        throw error;
      },
    });
    await ticks.start();
  });
  afterEach(async () => {
    await ticks.close();
    await closeRedis(redis);
  });

  const publish = (tick: PriceTickMessage): Promise<number> => redis.publish(keys.marketTicksChannel(), JSON.stringify(tick));

  it('serves a heard tick as LivePrices serves the stored quote: fresh, then stale, then nothing', async () => {
    const tick = { symbol: 'BTCUSDT', price: 100, venues: 2, ts: start };
    await redis.set(keys.marketQuote('BTCUSDT'), JSON.stringify({ ...tick, changePct24h: null }));
    await publish(tick);
    const stored = new LivePrices(createMarketStore(redis, config, clock), clock, freshness);
    for (const at of [start, start + freshness.freshMs + 1, start + freshness.staleMaxMs + 1]) {
      now = at;
      expect(await ticks.marks(['BTCUSDT']), `at +${at - start} ms`).to.deep.equal(await stored.marks(['BTCUSDT']));
    }
    expect((await ticks.marks(['BTCUSDT'])).size, 'past the stale limit').to.equal(0);
  });

  it('reads a symbol not heard yet once, then serves the ticks it hears without a read', async () => {
    await redis.set(
      keys.marketQuote('ETHUSDT'),
      JSON.stringify({ symbol: 'ETHUSDT', price: 3000, venues: 1, changePct24h: null, ts: start }),
    );
    expect(await ticks.marks(['ETHUSDT'])).to.deep.equal(new Map([['ETHUSDT', { price: 3000, stale: false }]]));
    const reads: string[][] = [];
    const stop = await watchCommands(redis, (args) => {
      if (args[0].toLowerCase() === 'get') reads.push(args);
    });
    try {
      await publish({ symbol: 'ETHUSDT', price: 3010, venues: 2, ts: start + 500 });
      await waitFor(async () => (await ticks.marks(['ETHUSDT'])).get('ETHUSDT')?.price === 3010, 2_000, 'the tick heard');
    } finally {
      stop();
    }
    expect(reads).to.deep.equal([]);
  });
});
