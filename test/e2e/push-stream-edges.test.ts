// @three-masters: the snapshot and the outbox id read in one transaction, pub/sub across nodes, key budgets
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import type { RunningRole } from '../../workers/runtime.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { waitFor } from '../helpers/market-wait.js';
import { connectStream, refusedUpgrade, startTestRelay, type StreamMessage, type TestStream } from '../helpers/push.js';
import { freshRedis } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Pos = { id: string };

const isType = (type: string) => (m: StreamMessage) => m.type === type;

/** The stream at its edges: what a snapshot already holds, and what an upgrade costs the key. */
describe('push: the WebSocket stream, its snapshot and its budget', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let pod: TestApi;
  let mod: AccountServices;
  let trader: Trader;
  const streams: TestStream[] = [];
  const connect = (query: Record<string, string>): TestStream => {
    const stream = connectStream(pod.url, query);
    streams.push(stream);
    return stream;
  };
  const open = async (symbol: string): Promise<Pos> => {
    const r = await botCall<{ position: Pos }>(pod.url, trader, 'POST', '/open', { symbol, side: 'long', margin_usd: 100, leverage: 10 });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position;
  };

  before(async () => {
    redis = await freshRedis();
    pod = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', STREAM_TICK_MS: '200' });
    mod = accountServices(redis);
    await new TestPrices(redis).set({ BTCUSDT: 60000, ETHUSDT: 3000 });
  });
  after(async () => {
    for (const stream of streams) stream.ws.terminate();
    await pod.close();
    await closeRedis(redis);
  });
  beforeEach(async () => {
    trader = await createTrader(mod, { plan: 'free' });
  });

  it('does not send opened for a position its snapshot already holds, when that event is relayed after the snapshot', async () => {
    // no relay yet: the open's event waits in the outbox while the socket reads its snapshot
    const btc = await open('BTC');
    const stream = connect({ api_key: trader.apiKey });
    const snapshot = await stream.next(isType('snapshot'));
    expect((snapshot.data?.positions as Pos[]).map((p) => p.id)).to.deep.equal([btc.id]);
    let relay: RunningRole | undefined;
    try {
      relay = await startTestRelay(redis, { RELAY_SCAN_MS: '200' });
      await waitFor(async () => (await redis.xlen(keys.accountOutbox(trader.accountId))) === 0, 5_000, 'the open relayed');
      // an open after the snapshot comes through: the relay has passed the first open, in order, by then
      const eth = await open('ETH');
      await stream.next((m) => m.type === 'position' && (m.data?.position as Pos).id === eth.id);
      const after = stream.messages.slice(stream.messages.indexOf(snapshot) + 1).filter(isType('position'));
      expect(after.map((m) => [m.data?.event, (m.data?.position as Pos).id])).to.deep.equal([['opened', eth.id]]);
    } finally {
      await relay?.stop();
    }
  });

  it("counts an upgrade against the key's per-minute budget, the one its HTTP calls use: 429 with retry_after past it", async () => {
    // Free: 120 calls a minute per key; 119 over HTTP leave one for an upgrade
    const calls = await Promise.all(Array.from({ length: 119 }, () => botCall(pod.url, trader, 'GET', '/balance')));
    expect(calls.every((r) => r.status === 200)).to.equal(true);
    const stream = connect({ api_key: trader.apiKey });
    await stream.next(isType('snapshot'));
    stream.ws.close();
    await stream.closed;
    const refused = await refusedUpgrade(pod.url, { api_key: trader.apiKey });
    expect(refused.status).to.equal(429);
    const error = (refused.body as { error: { code: string; retry_after: number } }).error;
    expect(error.code).to.equal('rate_limited');
    expect(error.retry_after).to.be.within(1, 60);
    expect((await botCall(pod.url, trader, 'GET', '/balance')).status).to.equal(429);
  });
});
