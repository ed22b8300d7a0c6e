import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { startApiServer, type ApiServer } from '../../api/server.js';
import { configWith } from '../../shared/core/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { MINUTE_MS } from '../../shared/engine/order-rules.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startFeedRole } from '../../workers/feed-role.js';
import { sweepProcessor } from '../../workers/processors/sweep/sweep-processor.js';
import type { RunningRole } from '../../workers/runtime.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { MovableClock } from '../helpers/order-fixture.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { accountModule, botCall, createTrader, type Trader } from '../helpers/trading.js';

type Order = Record<string, unknown> & { order_id: string; status: string; fills_from_ts: number };
type Body = Record<string, unknown> & { order?: Order; position?: Record<string, unknown>; orders?: Order[]; recent?: Order[] };

describe('resting orders end to end: sim candle -> feed -> sweep job -> order step -> position', function () {
  // a candle of the current minute closes at the minute's end: the fill is awaited for up to a minute
  this.timeout(120_000);
  let sim: SimHandle;
  let redis: Redis;
  let feed: RunningRole;
  let worker: RunningRole;
  let api: ApiServer;
  let trader: Trader;
  // behind the wall clock: the test sets it so the orders placed may fill from the minute it scripts on
  const clock = new MovableClock();

  before(async () => {
    sim = await startScriptedSim();
    redis = await freshRedis();
    const env = { REDIS_URL: testRedisUrl(), MARKET_SOURCE: 'sim', SIM_URL: sim.url, PRICE_FRESH_MS: '3000', QUOTE_CACHE_MS: '0', PUBLIC_RATE_LIMIT: '100000', FEED_LEASE_MS: '2000', PORT: '0', HOST: '127.0.0.1' };
    const config = configWith(env);
    const ctx = { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) };
    feed = await startFeedRole(ctx);
    worker = await startWorkerRole(ctx, { processors: [sweepProcessor], schedules: [] });
    api = await startApiServer({ config, redis, logger: ctx.logger, clock });
    trader = await createTrader(accountModule(redis));
  });
  after(async () => {
    await api?.close();
    await worker?.stop();
    await feed?.stop();
    await sim?.close();
    await closeRedis(redis);
  });

  it('fills a limit long and a stop short at their levels from the closed candle the sim publishes; a level it missed keeps resting', async () => {
    await simControl(sim, 'price', { symbol: 'ETHUSDT', price: 3500 });
    await waitFor(async () => {
      const r = await botCall<Body>(api.url, trader, 'POST', '/open', { symbol: 'ETH', side: 'long', margin_usd: 10, leverage: 2, dry_run: true });
      return r.body.position?.entry === 3500;
    }, 10_000, 'the sim price on the open path');
    // not in the last seconds of a minute: the candle set below must close as this minute's first
    if (Date.now() % MINUTE_MS > MINUTE_MS - 5_000) await new Promise((resolve) => setTimeout(resolve, MINUTE_MS - (Date.now() % MINUTE_MS) + 100));
    const minute = Date.now() - (Date.now() % MINUTE_MS);
    // the API's clock half a minute before it: the orders may fill from this minute on, not from an earlier
    // candle the sim closes meanwhile (its low holds the price before 3500)
    clock.shift = minute - MINUTE_MS / 2 - Date.now();
    const place = async (body: Record<string, unknown>): Promise<Order> => {
      const r = await botCall<Body>(api.url, trader, 'POST', '/open', { symbol: 'ETH', margin_usd: 100, leverage: 10, ...body });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body.order!;
    };
    const limit = await place({ side: 'long', type: 'limit', limit_price: 3450, tp: 3700 });
    const stop = await place({ side: 'short', type: 'stop', limit_price: 3420, sl: 3600 });
    const untouched = await place({ side: 'long', type: 'limit', limit_price: 3300 });

    expect([limit.fills_from_ts, stop.fills_from_ts]).to.deep.equal([minute, minute]);
    await simControl(sim, 'candle', { symbol: 'ETHUSDT', minute, open: 3500, high: 3510, low: 3400, close: 3480 });

    const done = await waitFor(async () => {
      const r = await botCall<Body>(api.url, trader, 'GET', '/orders');
      return r.body.recent?.length === 2 ? r.body : undefined;
    }, 90_000, 'the two orders the candle reached to fill');
    const byId = new Map(done.recent!.map((o) => [o.order_id, o]));
    expect(byId.get(limit.order_id)).to.include({ status: 'filled', filled_ts: minute });
    expect(byId.get(stop.order_id)).to.include({ status: 'filled', filled_ts: minute });
    expect(done.orders!.map((o) => o.order_id)).to.deep.equal([untouched.order_id]);
    const positions = (await botCall<Body>(api.url, trader, 'GET', '/positions')).body.positions as Record<string, unknown>[];
    const byPosition = new Map(positions.map((p) => [p.id, p]));
    expect(byPosition.get(byId.get(limit.order_id)!.position_id)).to.include({ side: 'long', entry: 3450, opened_ts: minute, tp: 3700, status: 'open' });
    expect(byPosition.get(byId.get(stop.order_id)!.position_id)).to.include({ side: 'short', entry: 3420, opened_ts: minute, sl: 3600, status: 'open' });
  });
});
