import { expect } from 'chai';
import { Queue } from 'bullmq';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { testRedisUrl } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, waitForOpenEntry, type Trader } from '../helpers/trading.js';

type Body = Record<string, unknown> & { position?: Record<string, unknown>; markets?: Record<string, unknown>[] };

describe('bot trading end to end: sim -> feed -> Redis -> trading routes (all classes), and the funding scheduler', function () {
  this.timeout(60_000);
  let trader: Trader;

  // the universe (classes, and which TradFi markets are closed) read from the venues every second, not every 5 minutes
  const stack = useSimStack({ env: { ...TRADING_SIM_ENV, UNIVERSE_REFRESH_MS: '1000' }, feed: true, worker: {} });
  before(async () => {
    trader = await createTrader(accountServices(stack.redis));
    await waitFor(
      async () => (await botCall<Body>(stack.api.url, trader, 'GET', '/markets?class=metal')).body.markets?.length === 2,
      20_000,
      'metal markets with prices',
    );
  });

  it("lists crypto and the TradFi perpetuals of the sim with the classes the venues' metadata gives them", async () => {
    const r = await botCall<Body>(stack.api.url, trader, 'GET', '/markets');
    const by = Object.fromEntries(r.body.markets!.map((m) => [m.symbol, m.asset_class]));
    expect(by).to.include({ BTCUSDT: 'crypto', ETHUSDT: 'crypto', XAUUSDT: 'metal', XAGUSDT: 'metal' });
    expect(by).to.include({ SPX500USDT: 'index', NAS100USDT: 'index', TSLAUSDT: 'stock', NVDAUSDT: 'stock' });
    expect(by).to.include({ EURUSDT: 'forex', JPYUSDT: 'forex' });
    // a stock no table names: its class is the venues' word (Binance EQUITY, Bybit stock, OKX instCategory 3)
    expect(by).to.include({ AMZNUSDT: 'stock' });
    expect(Object.keys(by).length).to.equal(73);
    const stocks = await botCall<Body>(stack.api.url, trader, 'GET', '/markets?class=stock');
    expect(stocks.body.markets!.map((m) => m.symbol)).to.have.members(['TSLAUSDT', 'NVDAUSDT', 'AAPLUSDT', 'MSFTUSDT', 'AMZNUSDT']);
    expect(stocks.body.markets!.every((m) => m.max_leverage === 50 && m.taker_fee_pct === 0.02)).to.equal(true);
  });

  it('fills an open at the price set on the simulated exchanges, for a coin and for gold', async () => {
    await simControl(stack.sim, 'price', { symbol: 'BTCUSDT', price: 71234.5 });
    await simControl(stack.sim, 'price', { symbol: 'XAUUSDT', price: 4012.25 });
    const btc = await waitForOpenEntry<Body>(
      stack.api.url,
      trader,
      { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 100 },
      71234.5,
      'the sim price on the open path',
    );
    expect(btc.body.position).to.include({ symbol: 'BTC', entry: 71234.5 });
    // each symbol's price travels on its own: wait for gold's as well before trading it
    const goldShort = { symbol: 'XAU', side: 'short', margin_usd: 100, leverage: 20 };
    await waitForOpenEntry(stack.api.url, trader, goldShort, 4012.25, 'the sim gold price on the open path');
    const gold = await botCall<Body>(stack.api.url, trader, 'POST', '/open', goldShort);
    expect(gold.status).to.equal(200);
    expect(gold.body.position).to.include({ symbol: 'XAU', asset_class: 'metal', entry: 4012.25, fee_rate_pct: 0.015 });
    await simControl(stack.sim, 'price', { symbol: 'XAUUSDT', price: 3990 });
    const closed = await waitFor(
      async () => {
        const r = await botCall<Body & { closed?: Record<string, unknown> }>(stack.api.url, trader, 'GET', '/positions');
        const row = (r.body.positions as Record<string, unknown>[])[0];
        return row?.mark_price === 3990 ? row : undefined;
      },
      5_000,
      'the new gold mark',
    );
    expect(closed.unrealized_pnl_usd as number).to.be.above(0);
    const r = await botCall<Body & { closed?: Record<string, unknown> }>(stack.api.url, trader, 'POST', '/close', {
      id: gold.body.position!.id,
      symbol: 'XAUUSDT',
    });
    expect(r.body.closed).to.include({ exit: 3990, pnl_usd: closed.unrealized_pnl_usd });
  });

  it('refuses opens on gold while Binance lists its market closed (BREAK), closes still fill, and opens again once it reopens', async () => {
    const gold = { symbol: 'XAU', side: 'long', margin_usd: 100, leverage: 20 };
    const open = (body: Record<string, unknown>) => botCall<Body>(stack.api.url, trader, 'POST', '/open', body);
    const held = await open(gold);
    expect(held.status, JSON.stringify(held.body)).to.equal(200);
    await simControl(stack.sim, 'market', { symbol: 'XAUUSDT', closed: true });
    try {
      // the feed reads the closure with the venue's instrument list: dry runs (which write nothing) until it has
      await waitFor(async () => (await open({ ...gold, dry_run: true })).status === 409, 15_000, 'the closure on the open path');
      const refused = await open(gold);
      expect([refused.status, refused.body.error]).to.deep.equal([409, 'market_closed']);
      const closed = await botCall<Body>(stack.api.url, trader, 'POST', '/close', { id: held.body.position!.id });
      expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
      // a coin trades on
      expect((await open({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 })).status).to.equal(200);
    } finally {
      await simControl(stack.sim, 'market', { symbol: 'XAUUSDT', closed: false });
    }
    await waitFor(async () => (await open({ ...gold, dry_run: true })).status === 200, 15_000, 'the reopening on the open path');
    expect((await open(gold)).status).to.equal(200);
  });

  it('registers the funding recorder once, a minute after each hour (every funding schedule settles on the hour)', async () => {
    const connection = createBlockingRedis(testRedisUrl());
    const queue = new Queue(QUEUES.funding, { connection, prefix: QUEUE_PREFIX });
    try {
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => ({ key: s.key, pattern: s.pattern, tz: s.tz }))).to.deep.equal([
        { key: 'funding-record', pattern: '5 1 * * * *', tz: 'UTC' },
      ]);
    } finally {
      await queue.close();
      await closeRedis(connection);
    }
  });
});
