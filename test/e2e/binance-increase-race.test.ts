// @three-masters: racing the increase and close scripts over several keys, from two API pods
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { auditBook, type LedgerTrade } from '../../shared/paper/audit/ledger-audit.js';
import { bookCounters } from '../../shared/paper/positions/book-counters.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { getJson, startTestApi, type JsonResponse, type TestApi } from '../helpers/app.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { TestPrices } from '../helpers/trading.js';

type Answer = { code?: number; msg?: string; orderId?: string; executedQty?: string; avgPrice?: string; side?: string };

const ROUNDS = 5;

describe('Binance dialect: two increases and a close racing on one position, from two API pods', function () {
  this.timeout(180_000);
  let redis: RedisClient;
  const conns: RedisClient[] = [];
  const apis: TestApi[] = [];
  let key: { apiKey: string; secret: string; accountId: string };

  before(async () => {
    redis = await freshRedis();
    for (let i = 0; i < 2; i++) {
      // each pod on its own connection, as two processes would be
      conns.push(createRedis(testRedisUrl(), { enableAutoPipelining: false }));
      apis.push(await startTestApi(conns[i], { PUBLIC_RATE_LIMIT: '1000000' }));
    }
    const accounts = createAccountServices({ redis, secretsKey: configWith().webhookSecretsKey });
    const created = await accounts.service.createKey({ email: `race-${Date.now()}@example.org`, plan: 'business', secret: true });
    key = { apiKey: created.apiKey, secret: created.secret ?? '', accountId: created.account.id };
  });
  after(async () => {
    await Promise.all(apis.map((api) => api.close()));
    await closeRedis(redis, ...conns);
  });

  const signed = (pod: number, method: string, path: string, params: Record<string, string>): Promise<JsonResponse<Answer>> => {
    // a wide recvWindow: on a loaded machine a request may wait seconds for the server
    const query = new URLSearchParams({ ...params, recvWindow: '60000', timestamp: String(Date.now()) }).toString();
    const signature = createHmac('sha256', key.secret).update(query).digest('hex');
    return getJson<Answer>(`${apis[pod].url}/fapi${path}?${query}&signature=${signature}`, {
      method,
      headers: { 'X-MBX-APIKEY': key.apiKey },
    });
  };
  const order = (pod: number, side: 'BUY' | 'SELL', quantity: number, id: string, extra: Record<string, string> = {}) =>
    signed(pod, 'POST', '/v1/order', {
      symbol: 'BTCUSDT',
      side,
      type: 'MARKET',
      quantity: String(quantity),
      newClientOrderId: id,
      ...extra,
    });

  it('money moves once per answered order, nothing is lost, no 5xx; a retry of an increase answers its first result', async () => {
    const prices = new TestPrices(redis);
    await prices.set({ BTCUSDT: 65000 });
    const lev = await signed(0, 'POST', '/v1/leverage', { symbol: 'BTCUSDT', leverage: '10' });
    expect(lev.status, JSON.stringify(lev.body)).to.equal(200);
    const filled: Answer[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await prices.set({ BTCUSDT: 65000 + 100 * round });
      const open = await order(0, 'BUY', 0.01, `open-${round}`);
      expect(open.status, JSON.stringify(open.body)).to.equal(200);
      filled.push(open.body);
      await prices.set({ BTCUSDT: 65000 + 100 * round });
      const raced = await Promise.all([
        order(0, 'BUY', 0.01, `add-a-${round}`),
        order(1, 'BUY', 0.02, `add-b-${round}`),
        order(round % 2, 'SELL', 1, `close-${round}`, { reduceOnly: 'true' }),
      ]);
      for (const answer of raced) {
        expect(answer.status, JSON.stringify(answer.body)).to.be.below(500);
        // a race lost every time is the named busy (Binance's -1008, retryable), never anything else
        if (answer.status === 200) filled.push(answer.body);
        else expect([answer.status, answer.body.code], JSON.stringify(answer.body)).to.deep.equal([503, -1008]);
      }
      // retried on the other pod: the first answer again, and no second fill
      for (const [i, id] of [`add-a-${round}`, `add-b-${round}`].entries()) {
        if (raced[i].status !== 200) continue;
        const retry = await order(1 - i, 'BUY', 0.01 * (i + 1), id);
        expect(retry.body).to.deep.include({ orderId: raced[i].body.orderId, avgPrice: raced[i].body.avgPrice });
      }
      const closed = await getJson(`${apis[round % 2].url}/api/bot/v1/close_all`, { method: 'POST', headers: { 'x-api-key': key.apiKey } });
      expect(closed.status).to.equal(200);
    }
    expect(await redis.hlen(keys.bookOpen(key.accountId, 'main'))).to.equal(0);
    const adds = filled.filter((a) => /-ADD\d+$/.test(String(a.orderId)));
    expect(adds.length, 'no increase applied in any round').to.be.greaterThan(0);
    // nothing lost: every quantity bought was sold once
    const closedRaw = await redis.hvals(keys.bookClosed(key.accountId, 'main'));
    const bought = filled.filter((a) => a.side === 'BUY').reduce((sum, a) => sum + Number(a.executedQty), 0);
    const sold = closedRaw.reduce((sum, raw) => sum + (JSON.parse(raw) as { qty: number }).qty, 0);
    expect(sold).to.be.closeTo(bought, 1e-9);
    // one position.updated (change increase) per answered increase; the counters agree with the ledger
    const events = await redis.xrange(keys.accountOutbox(key.accountId), '-', '+');
    expect(events.filter(([, f]) => f.includes('increase'))).to.have.length(adds.length);
    const stats = bookCounters(await redis.hgetall(keys.bookStats(key.accountId, 'main')));
    expect(
      auditBook(
        stats,
        closedRaw.map((raw) => JSON.parse(raw) as LedgerTrade),
      ),
    ).to.deep.equal([]);
  });
});
