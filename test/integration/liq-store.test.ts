import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { DAY_MINUTES, MINUTE_MS } from '../../shared/derivatives/liquidations/bucket-math.js';
import type { CollectedLiquidation } from '../../shared/derivatives/liquidations/liquidation-event.js';
import { LiquidationStore, TOTALS_WINDOW_MS } from '../../shared/derivatives/liquidations/liquidation-store.js';
import { keys } from '../../shared/redis/keys.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { freshRedis } from '../helpers/redis.js';

/** 00:10 UTC today: the day strings expire 30 days after their (real) day, so the test days are recent. */
const T0 = Math.floor(Date.now() / (DAY_MINUTES * MINUTE_MS)) * DAY_MINUTES * MINUTE_MS + 10 * MINUTE_MS;
const all = (): boolean => true;

function ev(id: string, over: Partial<CollectedLiquidation> = {}): CollectedLiquidation {
  return {
    id,
    ts: T0,
    exchange: 'binance',
    symbol: 'BTCUSDT',
    side: 'long_liquidated',
    price: 50_000,
    qty: 0.5,
    notional: 25_000,
    ...over,
  };
}

describe('liquidation store (Redis)', () => {
  let redis: RedisClient;
  let store: LiquidationStore;

  beforeEach(async () => {
    redis = await freshRedis();
    store = new LiquidationStore(redis, { dedupMs: 600_000, rawMax: 10_000 });
  });
  afterEach(async () => closeRedis(redis));

  it('stores a batch once: a replay (same id) is dropped, in the same batch or a later one', async () => {
    expect(
      await store.ingest([ev('a'), ev('b', { side: 'short_liquidated', exchange: 'okx', notional: 1_000.25 }), ev('a')], all, T0),
    ).to.deep.equal({ added: 2, duplicates: 1, stale: 0 });
    expect(await store.ingest([ev('a'), ev('b')], all, T0 + 5_000)).to.deep.equal({ added: 0, duplicates: 2, stale: 0 });
    const totals = await store.totals();
    expect(totals.coins.get('BTCUSDT')).to.deep.equal({
      long_liquidated: { usd: 25_000, count: 1 },
      short_liquidated: { usd: 1_000.25, count: 1 },
    });
    expect(totals.exchanges.get('okx')?.short_liquidated).to.deep.equal({ usd: 1_000.25, count: 1 });
    expect((await store.newest(10)).map((e) => e.exchange)).to.deep.equal(['okx', 'binance']);
    expect(await store.newestOf('BTCUSDT', 1)).to.have.length(1);
  });

  it('refuses events older than the dedup window (a replay it can no longer recognise)', async () => {
    expect(await store.ingest([ev('old', { ts: T0 - 700_000 }), ev('new', { ts: T0 - 1_000 })], all, T0)).to.deep.equal({
      added: 1,
      duplicates: 0,
      stale: 1,
    });
  });

  it('fills minute buckets per side in whole dollars, only for wanted symbols', async () => {
    await store.ingest(
      [
        ev('1'),
        ev('2', { ts: T0 + 30_000, notional: 100.4 }),
        ev('3', { ts: T0 + MINUTE_MS, side: 'short_liquidated', notional: 7 }),
        ev('4', { symbol: 'DOGEUSDT', notional: 5 }),
      ],
      (symbol) => symbol === 'BTCUSDT',
      T0 + MINUTE_MS,
    );
    const minute = T0 / MINUTE_MS;
    const got = await store.minutes('BTCUSDT', minute - 1, minute + 1);
    expect([...got]).to.deep.equal([
      [minute, { long: 25_100, short: 0 }],
      [minute + 1, { long: 0, short: 7 }],
    ]);
    expect((await store.minutes('DOGEUSDT', minute - 1, minute + 1)).size).to.equal(0);
    expect(await redis.exists(keys.liqSymbolEvents('DOGEUSDT'))).to.equal(0);
    // not followed, still counted in the totals and the raw feed
    expect((await store.totals()).coins.get('DOGEUSDT')?.long_liquidated.usd).to.equal(5);
    // the day string expires 30 days after its day ends
    const ttl = await redis.pttl(keys.liqMinuteBuckets('BTCUSDT', Math.floor(minute / DAY_MINUTES)));
    expect(ttl).to.be.greaterThan(29 * 86_400_000);
  });

  it('reads minutes across a day boundary', async () => {
    const midnight = T0 - 10 * MINUTE_MS;
    await store.ingest([ev('x', { ts: midnight - MINUTE_MS }), ev('y', { ts: midnight })], all, midnight + 1_000);
    const m = midnight / MINUTE_MS;
    expect([...(await store.minutes('BTCUSDT', m - 2, m + 2)).keys()]).to.deep.equal([m - 1, m]);
  });

  it('moves the 24 h window in 5-minute blocks: a block that leaves it is subtracted from the totals', async () => {
    const BLOCK = 5 * MINUTE_MS;
    await store.ingest([ev('m0'), ev('m1', { ts: T0 + BLOCK, exchange: 'gate', notional: 10 })], all, T0 + BLOCK);
    expect(await store.expire(T0 + TOTALS_WINDOW_MS)).to.equal(0);
    expect(await store.newest(10)).to.have.length(2);
    expect(await store.expire(T0 + TOTALS_WINDOW_MS + BLOCK)).to.equal(1);
    // the raw list keeps 24 h
    expect((await store.newest(10)).map((e) => e.exchange)).to.deep.equal(['gate']);
    let totals = await store.totals();
    expect(totals.coins.get('BTCUSDT')?.long_liquidated).to.deep.equal({ usd: 10, count: 1 });
    expect(totals.exchanges.has('binance')).to.equal(false);
    expect(await store.expire(T0 + TOTALS_WINDOW_MS + 2 * BLOCK)).to.equal(1);
    totals = await store.totals();
    expect(totals.coins.size + totals.exchanges.size).to.equal(0);
    // nothing but the window marker is left of the totals
    expect(Object.keys(await redis.hgetall(keys.liqTotals()))).to.deep.equal(['_expired']);
  });
});
