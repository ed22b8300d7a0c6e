import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { isRedisUnreachable } from '../../shared/core/redis-unreachable.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { freePort, startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { refusedUpgrade } from '../helpers/push.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

/** An API pod whose own redis-server the test stops and starts again (on the same port, with its data). */
describe('Redis unreachable: 503 unavailable with Retry-After, /readyz fails, and the pod recovers', function () {
  this.timeout(60_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'pd-outage-'));
  let server: EmbeddedRedis;
  let redis: RedisClient;
  let api: TestApi;
  let trader: Trader;

  before(async () => {
    server = await startEmbeddedRedis({ dataDir });
    redis = createRedis(server.url);
    // the outage is expected: its connection errors are not news
    redis.on('error', () => undefined);
    // the outage is expected: its connection errors are not news
    redis.on('error', () => undefined);
    api = await startTestApi(redis, { REDIS_URL: server.url, PUBLIC_RATE_LIMIT: '1000000' });
    trader = await createTrader(accountServices(redis));
    await new TestPrices(redis).set({ BTCUSDT: 60000 });
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const keyed = () => botCall(api.url, trader, 'GET', '/account');
  const keyless = () => getJson<Record<string, unknown>>(`${api.url}/api/v1/klines?symbol=BTC&interval=1m&limit=5`);
  const readyz = () => getJson<Record<string, unknown>>(`${api.url}/readyz`);

  it('answers keyed and keyless routes 503 unavailable with Retry-After and fails /readyz while Redis is down; serves again once it is back', async () => {
    expect((await keyed()).status).to.equal(200);
    expect((await readyz()).status).to.equal(200);
    const port = Number(new URL(server.url).port);

    await server.stop();
    const down = await Promise.all([
      keyed(),
      keyless(),
      botCall(api.url, trader, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2 }),
    ]);
    for (const r of down) {
      expect(r.status, JSON.stringify(r.body)).to.equal(503);
      expect(Number(r.headers.get('retry-after'))).to.be.within(1, 30);
    }
    expect((down[0].body as { error: string }).error).to.equal('unavailable');
    expect((down[1].body as { error: { code: string } }).error.code).to.equal('unavailable');
    // a stream's key is looked up before the upgrade: refused the same way, no socket
    const stream = await refusedUpgrade(api.url, { api_key: trader.apiKey });
    expect(stream.status).to.equal(503);
    expect((stream.body as { error: { code: string } }).error.code).to.equal('unavailable');
    const notReady = await readyz();
    expect(notReady.status).to.equal(503);
    expect(notReady.body).to.include({ ok: false, redis: 'down' });

    // not events.once: it rejects on the connection errors of the reconnect attempts before this one
    const ready = new Promise((resolve) => redis.once('ready', resolve));
    server = await startEmbeddedRedis({ dataDir, port });
    await ready;
    expect((await readyz()).status).to.equal(200);
    const back = await keyed();
    expect(back.status, JSON.stringify(back.body)).to.equal(200);
    expect(back.body).to.include({ account: 'main' });
  });

  it('tells a command that could not reach Redis from one Redis refused (only the first is unavailable)', async () => {
    const nowhere = createRedis(`redis://127.0.0.1:${await freePort()}`, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    nowhere.on('error', () => undefined);
    const lost = await nowhere.get('k').catch((e: unknown) => e);
    nowhere.disconnect();
    expect(isRedisUnreachable(lost), String(lost)).to.equal(true);
    expect(isRedisUnreachable(new Error('wrapped', { cause: lost }))).to.equal(true);
    await redis.set('a-string', '1');
    const refused = await redis.hget('a-string', 'f').catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(Error);
    expect(isRedisUnreachable(refused)).to.equal(false);
    expect(isRedisUnreachable(new Error('internal'))).to.equal(false);
  });
});
