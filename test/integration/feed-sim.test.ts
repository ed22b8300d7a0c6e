import { expect } from 'chai';
import { Queue } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith, type Config } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { AppError } from '../../shared/core/errors.js';
import { createMarketStore, type MarketStore } from '../../shared/market/market-store.js';
import type { Quote } from '../../shared/market/types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { sweepJobId } from '../../shared/queues/job-types.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { startFeedRole } from '../../workers/feed-role.js';
import type { RunningRole } from '../../workers/runtime.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, keysMatching, testRedisUrl } from '../helpers/redis.js';

const MINUTE = 60_000;
const VENUES = ['binance', 'bybit', 'okx', 'bitget'] as const;

describe('feed role against the simulated exchange', function () {
  this.timeout(60_000);
  let sim: SimHandle;
  let redis: RedisClient;
  let config: Config;
  let role: RunningRole;
  let store: MarketStore;
  let sweeps: Queue;
  let sweepsConnection: RedisClient;
  let price = 70_000;

  const quote = (): Promise<Quote | null> => store.getQuote('BTCUSDT');
  const setPrice = async (): Promise<number> => {
    price += 13.5;
    await simControl(sim, 'price', { symbol: 'BTCUSDT', price });
    return price;
  };
  /** Moves the sim's BTC price and waits for the quote of that price from `venues` venues. */
  const movePrice = async (venues: number, timeoutMs: number, what: string): Promise<Quote> => {
    const target = await setPrice();
    return waitFor(
      async () => {
        const q = await quote();
        return q?.price === target && q.venues === venues ? q : undefined;
      },
      timeoutMs,
      what,
    );
  };
  const connections = async (): Promise<Record<string, number>> => {
    const response = await fetch(`${sim.url}/__sim/state`);
    return ((await response.json()) as { connections: Record<string, number> }).connections;
  };

  before(async () => {
    sim = await startScriptedSim();
    redis = await freshRedis();
    config = configWith({
      REDIS_URL: testRedisUrl(),
      MARKET_SOURCE: 'sim',
      SIM_URL: sim.url,
      PRICE_FRESH_MS: '1500',
      STREAM_SILENCE_MS: '3000',
      STREAM_RECONNECT_MAX_MS: '400',
      FEED_LEASE_MS: '1000',
      AGGREGATE_THROTTLE_MS: '50',
      UNIVERSE_SIZE: '20',
      HISTORY_CACHE_MS: '5000',
      // the liquidation collector's sockets are counted in test/e2e/derivatives-routes.test.ts
      LIQ_VENUES: 'none',
    });
    role = await startFeedRole({ config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) });
    store = createMarketStore(redis, config);
    sweepsConnection = createBlockingRedis(testRedisUrl());
    sweeps = new Queue(QUEUES.sweep, { connection: sweepsConnection, prefix: QUEUE_PREFIX });
    await waitFor(async () => (await quote())?.venues === 4, 15_000, 'BTCUSDT from four venues');
  });

  after(async () => {
    await role?.stop();
    await sweeps?.close();
    await closeRedis(redis, sweepsConnection);
    await sim?.close();
  });

  it('builds the universe from the venues: top symbols by summed volume, USDT perpetuals only', async () => {
    const symbols = await store.listSymbols();
    expect(symbols).to.have.length(20);
    expect(symbols[0]).to.deep.include({ symbol: 'BTCUSDT', venues: [...VENUES] });
    const volumes = symbols.map((s) => s.quoteVolume24h);
    expect(volumes).to.deep.equal([...volumes].sort((a, b) => b - a));
    expect(symbols.map((s) => s.symbol).every((s) => /^[A-Z0-9]+USDT$/.test(s))).to.equal(true);
    expect(await store.isKnownSymbol('BTC')).to.equal(true);
  });

  it('shows a price set on the exchanges within 2 s, from four venues', async () => {
    const started = Date.now();
    const q = await movePrice(4, 2_000, 'the new price from 4 venues');
    expect(Date.now() - started).to.be.below(2_000);
    expect(q.ts).to.be.at.least(started - 1_000);
    const venuePrices = await redis.hgetall(keys.marketVenuePrices('BTCUSDT'));
    expect(Object.keys(venuePrices).sort()).to.deep.equal([...VENUES].sort());
  });

  it('drops a venue that is down from the median once its price is stale, and takes it back when it returns', async () => {
    await simControl(sim, 'provider', { name: 'okx', down: true });
    try {
      const { price: target } = await movePrice(3, 5_000, 'the median of three venues');
      const okx = JSON.parse((await redis.hget(keys.marketVenuePrices('BTCUSDT'), 'okx')) ?? '{}') as { price: number };
      expect(okx.price).to.not.equal(target);
    } finally {
      await simControl(sim, 'provider', { name: 'okx', down: false });
    }
    await movePrice(4, 8_000, 'four venues again');
  });

  it('stores a closed candle for a past minute once, from the best venue, and enqueues exactly one sweep', async () => {
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE - 3 * MINUTE;
    const ohlc = { open: price - 20, high: price + 150, low: price - 175, close: price + 5 };
    await simControl(sim, 'candle', { symbol: 'BTCUSDT', minute, ...ohlc });
    const candle = await waitFor(
      async () => {
        const found = (await store.getCandles('BTCUSDT', { fromMs: minute, toMs: minute, limit: 5 }))[0];
        return found?.venue === 'binance' && found.high === ohlc.high ? found : undefined;
      },
      5_000,
      'the candle from binance',
    );
    expect(candle).to.include({ openTime: minute, ...ohlc, closed: true });
    const job = await waitFor(() => sweeps.getJob(sweepJobId('BTCUSDT', minute)), 5_000, 'the sweep job');
    expect(job.data).to.include({ symbol: 'BTCUSDT', minute, high: ohlc.high, low: ohlc.low });
    const forMinute = (await sweeps.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter(
      (j) => j.data.minute === minute,
    );
    expect(forMinute).to.have.length(1);
    expect(await redis.zcount(keys.marketCandles1m('BTCUSDT'), minute, minute)).to.equal(1);
  });

  it('stops updating the aggregate while every venue is down (its ts ages), and resumes after', async () => {
    const before = await waitFor(
      async () => {
        const q = await quote();
        return q && Date.now() - q.ts < 1_000 ? q : undefined;
      },
      5_000,
      'a recent aggregate',
    );
    for (const name of VENUES) await simControl(sim, 'provider', { name, down: true });
    try {
      await simControl(sim, 'price', { symbol: 'BTCUSDT', price: price + 500 });
      await waitFor(() => Date.now() - before.ts > 2 * config.priceFreshMs, 10_000, 'time beyond freshness');
      const during = await quote();
      expect(during?.price).to.not.equal(price + 500);
      expect(during!.ts).to.be.below(before.ts + 1_000);
      expect(Date.now() - during!.ts).to.be.above(config.priceFreshMs);
    } finally {
      for (const name of VENUES) await simControl(sim, 'provider', { name, down: false });
    }
    await movePrice(4, 8_000, 'prices flowing again');
  });

  it('reconnects every connector after the sockets are dropped, and prices flow again', async () => {
    // 20 symbols: one socket each for binance, bybit and bitget; okx has a public and a business one
    const expected = { binance: 1, bybit: 1, okx: 2, bitget: 1 };
    const allOpen = async (): Promise<boolean> => {
      const open = await connections();
      return Object.entries(expected).every(([venue, n]) => open[venue] === n);
    };
    await waitFor(allOpen, 8_000, 'every socket open before the drop');
    const dropped = (await simControl(sim, 'drop', {})) as { dropped: number };
    expect(dropped.dropped).to.equal(5);
    await waitFor(allOpen, 8_000, 'every socket reconnected, none twice');
    await movePrice(4, 5_000, 'prices after the reconnect');
  });

  it('fetches REST history from the first venue that answers and caches it in aligned windows', async () => {
    const end = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
    const ones = await store.fetchHistory('BTCUSDT', 1, end, 30);
    expect(ones).to.have.length(30);
    expect(ones[29].openTime).to.equal(end);
    expect(ones.every((c, i) => i === 0 || c.openTime - ones[i - 1].openTime === MINUTE)).to.equal(true);
    const fives = await store.fetchHistory('BTCUSDT', 5, end, 4);
    expect(fives).to.have.length(4);
    expect(fives.every((c) => c.openTime % (5 * MINUTE) === 0)).to.equal(true);
    const newest = await store.fetchHistory('BTCUSDT', 1440, Date.now(), 30);
    expect(newest).to.have.length(30);
    const windows = (await keysMatching(redis, 'mkt:{BTCUSDT}:hist:*')).map((key) => key.split(':').slice(-2, -1)[0]);
    expect(new Set(windows), 'windows of the three intervals asked').to.deep.equal(new Set(['1', '5', '1440']));
    for (const name of VENUES) await simControl(sim, 'provider', { name, down: true });
    try {
      expect(await store.fetchHistory('BTCUSDT', 1440, Date.now(), 20), 'served from the cache').to.deep.equal(newest.slice(-20));
      expect(await store.fetchHistory('BTCUSDT', 1, end, 30), 'a past page too').to.deep.equal(ones);
      const error = await store.fetchHistory('BTCUSDT', 1, end - 2_000 * MINUTE, 30).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(AppError);
      expect((error as AppError).code).to.equal('upstream_unavailable');
    } finally {
      for (const name of VENUES) await simControl(sim, 'provider', { name, down: false });
    }
  });
});
