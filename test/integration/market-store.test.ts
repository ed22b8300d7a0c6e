// @three-masters: pub/sub, the sweep producer's BullMQ jobs, feed leases
import { expect } from 'chai';
import { Queue } from 'bullmq';
import { subscriberClient, type RedisClient } from '../../shared/core/redis-client.js';
import type { Clock } from '../../shared/core/clock.js';
import { createLogger } from '../../shared/core/logger.js';
import { FeedLease } from '../../shared/market/feed-lease.js';
import { MarketStore } from '../../shared/market/market-store.js';
import { MarketWriter } from '../../shared/market/market-writer.js';
import type { PriceTickMessage, Venue, VenueCandle, VenueTick } from '../../shared/market/types.js';
import { saveUniverse } from '../../shared/market/universe-store.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { createSweepProducer } from '../../shared/queues/sweep-producer.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { flushRedis, freshRedis, keysMatching, testRedisUrl, useFreshRedis } from '../helpers/redis.js';
import { waitFor } from '../helpers/market-wait.js';

const logger = createLogger({ logLevel: 'silent' });
const MINUTE = 60_000;

function manualClock(start: number): Clock & { set(t: number): void } {
  let now = start;
  return { now: () => now, set: (t) => (now = t) };
}

describe('market store and writer (Redis)', () => {
  let redis: RedisClient;
  const now = Math.floor(Date.now() / MINUTE) * MINUTE + 30_000;
  const clock = manualClock(now);
  let firstCloses: VenueCandle[];
  let writer: MarketWriter;
  let store: MarketStore;

  const tick = (venue: Venue, symbol: string, price: number, age = 0, changePct24h?: number): VenueTick => ({
    venue,
    symbol,
    price,
    ts: now - age,
    changePct24h,
  });
  const candle = (venue: Venue, openTime: number, close: number, closed = true): VenueCandle => ({
    venue,
    symbol: 'BTCUSDT',
    openTime,
    open: close - 1,
    high: close + 5,
    low: close - 5,
    close,
    volume: 2,
    closed,
  });

  before(async () => {
    redis = await freshRedis();
  });
  after(async () => {
    await closeRedis(redis);
  });
  beforeEach(async () => {
    await flushRedis(redis);
    clock.set(now);
    firstCloses = [];
    writer = new MarketWriter({
      redis,
      logger,
      clock,
      priceFreshMs: 10_000,
      flushIntervalMs: 50,
      onFirstClose: async (c) => {
        firstCloses.push(c);
      },
    });
    writer.setUniverse(['BTCUSDT', 'ETHUSDT']);
    store = new MarketStore({ redis, rests: [], historyCacheMs: 0, clock });
  });

  it('aggregates the median of the fresh venues, stores it and publishes it', async () => {
    const sub = subscriberClient(redis);
    const messages: PriceTickMessage[] = [];
    await sub.subscribe(keys.marketTicksChannel());
    sub.on('message', (_channel: string, text: string) => messages.push(JSON.parse(text) as PriceTickMessage));
    try {
      writer.recordTicks([
        tick('binance', 'BTCUSDT', 100, 0, 2.5),
        tick('bybit', 'BTCUSDT', 104),
        tick('okx', 'BTCUSDT', 101),
        tick('bitget', 'BTCUSDT', 500, 11_000),
        tick('binance', 'DOGEUSDT', 1),
      ]);
      await writer.flush();
      expect(await store.getQuote('btc')).to.deep.equal({
        symbol: 'BTCUSDT',
        price: 101,
        venues: 3,
        changePct24h: 2.5,
        ts: now,
        sinceTs: now,
      });
      expect(await store.getQuote('DOGE'), 'outside the universe').to.equal(null);
      await waitFor(() => messages.length > 0, 2_000, 'a published tick');
      expect(messages).to.deep.equal([{ symbol: 'BTCUSDT', price: 101, venues: 3, ts: now }]);
      writer.recordTicks([tick('okx', 'ETHUSDT', 3000)]);
      await writer.flush();
      expect((await store.getQuotes(['ETH-USDT', 'DOGE', 'BTCUSDT'])).map((q) => q && [q.symbol, q.price, q.venues])).to.deep.equal([
        ['ETHUSDT', 3000, 1],
        null,
        ['BTCUSDT', 101, 3],
      ]);
    } finally {
      await closeRedis(sub);
    }
  });

  it('keeps since when the venues have published an unchanged price, across flushes, until it moves or goes unheard', async () => {
    const at = (t: number, price: number): VenueTick => ({ ...tick('binance', 'BTCUSDT', price), ts: t });
    const since = async () => (await store.getQuote('BTCUSDT'))?.sinceTs;
    for (const t of [now, now + 5_000, now + 10_000]) {
      clock.set(t);
      writer.recordTicks([at(t, 100)]);
      await writer.flush();
    }
    expect(await store.getQuote('BTCUSDT')).to.include({ price: 100, ts: now + 10_000, sinceTs: now });
    clock.set(now + 15_000);
    writer.recordTicks([at(now + 15_000, 100.5)]);
    await writer.flush();
    expect(await since(), 'a move').to.equal(now + 15_000);
    // nothing heard for longer than PRICE_FRESH_MS: the same price again counts from when it was heard again
    clock.set(now + 40_000);
    writer.recordTicks([at(now + 40_000, 100.5)]);
    await writer.flush();
    expect(await since(), 'a gap').to.equal(now + 40_000);
  });

  it('leaves the aggregate alone (its ts ages) when every venue is stale', async () => {
    writer.recordTicks([tick('binance', 'BTCUSDT', 100)]);
    await writer.flush();
    clock.set(now + 20_000);
    writer.recordTicks([tick('bybit', 'BTCUSDT', 90, 15_000)]);
    await writer.flush();
    expect(await store.getQuote('BTCUSDT')).to.include({ price: 100, venues: 1, ts: now });
  });

  it('keeps one closed candle per minute by venue priority and reports only the first store', async () => {
    const m = now - 30_000 - MINUTE;
    expect(await writer.storeClosed(candle('bitget', m, 10))).to.equal('first');
    expect(await writer.storeClosed(candle('okx', m, 11))).to.equal('replaced');
    expect(await writer.storeClosed(candle('binance', m, 12))).to.equal('replaced');
    expect(await writer.storeClosed(candle('bybit', m, 13))).to.equal('kept');
    expect(await writer.storeClosed(candle('binance', m, 14))).to.equal('replaced');
    expect(firstCloses.map((c) => [c.venue, c.openTime])).to.deep.equal([['bitget', m]]);
    expect(await redis.zcard(keys.marketCandles1m('BTCUSDT'))).to.equal(1);
    const [c] = await store.getCandles('BTCUSDT', { limit: 10 });
    expect(c).to.deep.equal({ openTime: m, open: 13, high: 19, low: 9, close: 14, volume: 2, closed: true, venue: 'binance' });
  });

  it('serves closed candles oldest first plus the newest current one, within range and limit', async () => {
    const cur = now - 30_000;
    for (let i = 5; i >= 1; i--) await writer.storeClosed(candle('binance', cur - i * MINUTE, 100 + i));
    writer.recordCandles([candle('okx', cur, 200, false), candle('bitget', cur, 300, false), candle('binance', cur - MINUTE, 999, false)]);
    await writer.flush();
    const all = await store.getCandles('BTCUSDT', { limit: 100 });
    expect(all.map((c) => [c.openTime, c.close, c.closed])).to.deep.equal([
      [cur - 5 * MINUTE, 105, true],
      [cur - 4 * MINUTE, 104, true],
      [cur - 3 * MINUTE, 103, true],
      [cur - 2 * MINUTE, 102, true],
      [cur - MINUTE, 101, true],
      [cur, 200, false],
    ]);
    expect((await store.getCandles('BTCUSDT', { limit: 3 })).map((c) => c.openTime)).to.deep.equal([cur - 2 * MINUTE, cur - MINUTE, cur]);
    const ranged = await store.getCandles('BTCUSDT', { fromMs: cur - 4 * MINUTE, toMs: cur - 2 * MINUTE, limit: 100 });
    expect(ranged.map((c) => c.openTime)).to.deep.equal([cur - 4 * MINUTE, cur - 3 * MINUTE, cur - 2 * MINUTE]);
    clock.set(now + 10 * MINUTE);
    expect(
      (await store.getCandles('BTCUSDT', { limit: 100 })).every((c) => c.closed),
      'a stale current candle is left out',
    ).to.equal(true);
  });

  it('trims the series to 1440 minutes and refuses a minute older than all of them', async () => {
    const base = now - 30_000 - 1500 * MINUTE;
    const pipeline = redis.pipeline();
    for (let i = 0; i < 1440; i++) {
      pipeline.zadd(
        keys.marketCandles1m('BTCUSDT'),
        base + i * MINUTE,
        JSON.stringify({ t: base + i * MINUTE, o: 1, h: 1, l: 1, c: 1, v: 1, venue: 'binance' }),
      );
    }
    await pipeline.exec();
    expect(await writer.storeClosed(candle('binance', base - MINUTE, 5))).to.equal('too-old');
    expect(await writer.storeClosed(candle('bybit', base + 1440 * MINUTE, 5))).to.equal('first');
    expect(await redis.zcard(keys.marketCandles1m('BTCUSDT'))).to.equal(1440);
    expect(Number((await redis.zrange(keys.marketCandles1m('BTCUSDT'), '0', '0', 'WITHSCORES'))[1])).to.equal(base + MINUTE);
    expect(await redis.pttl(keys.marketCandles1m('BTCUSDT'))).to.be.greaterThan(0);
  });

  it('routes closed candles from the stream to the store, and ignores symbols outside the universe', async () => {
    const m = now - 30_000 - MINUTE;
    writer.recordCandles([candle('okx', m, 50), { ...candle('okx', m, 50), symbol: 'DOGEUSDT' }]);
    await writer.stop();
    expect(firstCloses.map((c) => c.symbol)).to.deep.equal(['BTCUSDT']);
    expect(await redis.exists(keys.marketCandles1m('DOGEUSDT'))).to.equal(0);
  });

  it('stores the universe as an ordered list and a membership set', async () => {
    await saveUniverse(redis, {
      updatedAt: now,
      symbols: [
        { symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 10, venues: ['binance', 'okx'] },
        { symbol: 'AMZNUSDT', assetClass: 'stock', quoteVolume24h: 5, venues: ['bybit'] },
      ],
    });
    expect(await store.listSymbols()).to.deep.equal([
      { symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 10, venues: ['binance', 'okx'] },
      { symbol: 'AMZNUSDT', assetClass: 'stock', quoteVolume24h: 5, venues: ['bybit'] },
    ]);
    expect(await store.isKnownSymbol('amzn')).to.equal(true);
    expect([await store.assetClass('AMZN'), await store.assetClass('BTC'), await store.assetClass('DOGE')]).to.deep.equal([
      'stock',
      'crypto',
      'crypto',
    ]);
    expect(await store.isKnownSymbol('DOGEUSDT')).to.equal(false);
    expect(await store.isKnownSymbol('not a symbol!')).to.equal(false);
    await saveUniverse(redis, {
      updatedAt: now + 1,
      symbols: [{ symbol: 'DOGEUSDT', assetClass: 'crypto', quoteVolume24h: 1, venues: ['okx'] }],
    });
    expect(await store.isKnownSymbol('AMZNUSDT')).to.equal(false);
    expect(await store.isKnownSymbol('DOGE')).to.equal(true);
  });
});

describe('sweep producer (BullMQ)', () => {
  it('adds one job per symbol and minute, whatever the number of enqueues, and closes its connection', async () => {
    const redis = await freshRedis();
    const producer = createSweepProducer(testRedisUrl());
    const connection = createBlockingRedis(testRedisUrl());
    const queue = new Queue(QUEUES.sweep, { connection, prefix: QUEUE_PREFIX });
    try {
      const job = { symbol: 'BTCUSDT', minute: 1_700_000_040_000, open: 1, high: 2, low: 0.5, close: 1.5 };
      await Promise.all([producer.enqueue(job), producer.enqueue(job), producer.enqueue({ ...job, close: 9 })]);
      await producer.enqueue({ ...job, minute: job.minute + MINUTE });
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active']);
      expect(jobs.map((j) => j.id).sort()).to.deep.equal(['sweep:BTCUSDT:1700000040000', 'sweep:BTCUSDT:1700000100000']);
      expect(jobs.find((j) => j.id === 'sweep:BTCUSDT:1700000040000')?.data).to.deep.equal(job);
      expect(await keysMatching(redis, '{bull}:sweep:*')).to.have.length.greaterThan(0);
    } finally {
      await producer.close();
      await queue.close();
      await closeRedis(redis, connection);
    }
  });
});

describe('feed lease', () => {
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh));

  function lease(owner: string, events: string[], leaseMs = 600): FeedLease {
    return new FeedLease({
      redis,
      name: 'testvenue',
      owner,
      leaseMs,
      logger,
      clock: { now: () => Date.now() },
      onGained: () => {
        events.push(`${owner}+`);
      },
      onLost: (reason) => {
        events.push(`${owner}-${reason}`);
      },
    });
  }

  it('gives the venue to one holder, keeps it renewed, and hands it over when the holder stops', async () => {
    const events: string[] = [];
    const a = lease('a', events);
    a.start();
    await waitFor(() => a.isHeld, 2_000, 'a holds the lease');
    const b = lease('b', events);
    b.start();
    // a renews several times (the TTL climbs back up) while b keeps trying and never gets in
    let renewals = 0;
    let lastTtl = await redis.pttl(keys.feedLease('testvenue'));
    await waitFor(
      async () => {
        const ttl = await redis.pttl(keys.feedLease('testvenue'));
        if (ttl > lastTtl) renewals++;
        lastTtl = ttl;
        expect(b.isHeld).to.equal(false);
        return renewals >= 4;
      },
      5_000,
      'four renewals by a',
      20,
    );
    expect(await redis.get(keys.feedLease('testvenue'))).to.equal('a');
    await a.stop();
    await waitFor(() => b.isHeld, 1_000, 'b takes over');
    await b.stop();
    expect(events).to.deep.equal(['a+', 'a-stopping', 'b+', 'b-stopping']);
    expect(await redis.exists(keys.feedLease('testvenue'))).to.equal(0);
  });

  it('stops its connector when the lease is taken from it, and a standby takes over after expiry', async () => {
    const events: string[] = [];
    const a = lease('a', events, 300);
    a.start();
    await waitFor(() => a.isHeld, 2_000, 'a holds the lease');
    await redis.set(keys.feedLease('testvenue'), 'intruder', 'PX', 400);
    await waitFor(() => !a.isHeld, 2_000, 'a notices');
    expect(events).to.deep.equal(['a+', 'a-taken over or expired']);
    await waitFor(() => a.isHeld, 3_000, 'a gets it back after the intruder lapses');
    await a.stop();
  });

  it("takes a dead holder's lease over as it lapses, not at its next third of the lease", async () => {
    // a holder that renewed 200 ms before it died: its lease lapses in 400 ms; a standby that tried every third
    // of its 3 s lease would wait a whole second, one that aims at the lapse takes over at 400 ms
    const events: string[] = [];
    await redis.set(keys.feedLease('testvenue'), 'dead', 'PX', 400);
    const b = lease('b', events, 3_000);
    const startedAt = Date.now();
    b.start();
    await waitFor(() => b.isHeld, 2_000, 'b takes over', 10);
    const tookMs = Date.now() - startedAt;
    await b.stop();
    expect(tookMs).to.be.within(390, 800);
  });
});
