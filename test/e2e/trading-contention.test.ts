// @three-masters: racing money scripts over several keys
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { startTestApi, type JsonResponse, type TestApi } from '../helpers/app.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Body = Record<string, unknown> & {
  error?: string;
  position?: Record<string, unknown>;
  closed?: Record<string, unknown>;
  remaining?: Record<string, unknown>;
};

/**
 * Every answer of a burst: 2xx, or the named retryable 409 busy with Retry-After, or one of the
 * codes `settled` allows (the state the winners left behind); never a 5xx.
 */
function expectNoLostRace(results: JsonResponse<Body>[], settled: readonly string[] = []): void {
  for (const r of results) {
    expect(r.status, JSON.stringify(r.body)).to.be.below(500);
    if (r.status < 300) continue;
    if (r.body.error === 'busy') {
      expect(r.status).to.equal(409);
      expect(Number(r.headers.get('retry-after'))).to.be.within(1, 5);
      continue;
    }
    expect(settled, JSON.stringify(r.body)).to.include(r.body.error);
  }
}

const PODS = 2;

describe('bot trading under contention: two API pods on one Redis', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  const conns: RedisClient[] = [];
  const apis: TestApi[] = [];
  let mod: AccountServices;
  let prices: TestPrices;
  let trader: Trader;

  before(async () => {
    redis = await freshRedis();
    for (let i = 0; i < PODS; i++) {
      // each pod on its own connection, as two processes would be
      conns.push(createRedis(testRedisUrl(), { enableAutoPipelining: false }));
      apis.push(await startTestApi(conns[i], { PUBLIC_RATE_LIMIT: '1000000' }));
    }
    mod = accountServices(redis);
    prices = new TestPrices(redis);
  });
  after(async () => {
    await Promise.all(apis.map((api) => api.close()));
    await closeRedis(redis, ...conns);
  });
  beforeEach(async () => {
    await prices.set({ BTCUSDT: 60000, ETHUSDT: 3000 });
    trader = await createTrader(mod);
  });

  /** n calls of one route, alternating between the pods, all sent at once. */
  const burst = (n: number, path: string, body: (i: number) => Record<string, unknown>) =>
    Promise.all(Array.from({ length: n }, (_, i) => botCall<Body>(apis[i % PODS].url, trader, 'POST', path, body(i))));
  const open = async (body: Record<string, unknown>) => {
    const r = await botCall<Body>(apis[0].url, trader, 'POST', '/open', { margin_usd: 100, leverage: 10, ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position as Record<string, unknown> & { id: string };
  };

  it('100 concurrent sltp on one position: no 5xx; the stored levels are those of a request that answered 200', async () => {
    const p = await open({ symbol: 'BTC', side: 'long' });
    const results = await burst(100, '/sltp', (i) => ({ id: p.id, sl: 50000 + i, tp: 70000 + i }));
    expectNoLostRace(results);
    const ok = results.filter((r) => r.status === 200).map((r) => r.body.position!.sl);
    expect(ok.length).to.be.greaterThan(0);
    const stored = JSON.parse((await redis.hget(keys.bookOpen(trader.accountId, 'main'), p.id))!) as { sl: number; tp: number; v: number };
    expect(ok).to.include(stored.sl);
    expect(stored.tp - stored.sl).to.equal(20000);
    // one version step and one position.updated per applied change
    expect(stored.v).to.equal(1 + ok.length);
    const events = await redis.xrange(keys.accountOutbox(trader.accountId), '-', '+');
    expect(events.filter(([, f]) => f[1] === 'position.updated')).to.have.length(ok.length);
  });

  it('200 concurrent closes of 50% of one position: no 5xx; closed quantities never exceed the position; the balance moves once per settled close', async () => {
    const p = await open({ symbol: 'ETH', side: 'long', margin_usd: 10_000, leverage: 10 });
    await prices.set({ ETHUSDT: 3030 });
    const results = await burst(200, '/close', () => ({ id: p.id, pct: 50 }));
    // halving $10,000 of margin reaches the $1 minimum after 13 closes: the next ones are refused
    expectNoLostRace(results, ['already_closed', 'position_not_found', 'remaining_margin_min_1']);
    const settled = results.filter((r) => r.status === 200);
    expect(settled.length).to.be.greaterThan(0);
    const closedQty = settled.reduce((sum, r) => sum + (r.body.closed!.qty as number), 0);
    expect(closedQty).to.be.at.most((p.qty as number) * (1 + 1e-12));
    const rest = await redis.hget(keys.bookOpen(trader.accountId, 'main'), p.id);
    const left = rest === null ? { qty: 0, margin: 0 } : (JSON.parse(rest) as { qty: number; margin: number });
    expect(closedQty + left.qty).to.be.closeTo(p.qty as number, 1e-9);
    expect(left.margin).to.be.at.least(1);
    const cents = settled.reduce((sum, r) => sum + Math.round((r.body.closed!.pnl_usd as number) * 100), 0);
    const stats = await redis.hgetall(keys.bookStats(trader.accountId, 'main'));
    expect(Number(stats.closed)).to.equal(settled.length);
    expect(Number(stats.realized_cents)).to.equal(cents);
    const events = await redis.xrange(keys.accountOutbox(trader.accountId), '-', '+');
    expect(events.filter(([, f]) => f[1] === 'position.closed')).to.have.length(settled.length);
  });

  it('100 concurrent modify_order on one order: no 5xx; the stored terms are those of a request that answered 200', async () => {
    const placed = await botCall<Body>(apis[0].url, trader, 'POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      type: 'limit',
      limit_price: 59000,
      margin_usd: 100,
      leverage: 10,
    });
    const orderId = (placed.body.order as { order_id: string }).order_id;
    const results = await burst(100, '/modify_order', (i) => ({ order_id: orderId, limit_price: 59000 - i }));
    expectNoLostRace(results);
    const ok = results.filter((r) => r.status === 200).map((r) => (r.body.order as { limit_price: number }).limit_price);
    expect(ok.length).to.be.greaterThan(0);
    const stored = JSON.parse((await redis.hget(keys.bookOrderData(trader.accountId, 'main'), orderId))!) as { limit_price: number };
    expect(ok).to.include(stored.limit_price);
  });
});
