import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configWith } from '../../shared/config.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { isRedisUnreachable } from '../../shared/core/redis-unreachable.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { freePort, startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';
import { checkEvictionPolicy, EvictionPolicyError } from '../../shared/redis/eviction-policy.js';
import { redisRefusals } from '../../shared/metrics/metrics.js';
import { startService } from '../../workers/service.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { refusedUpgrade } from '../helpers/push.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

/** An API pod whose own redis-server the test stops and starts again (on the same port, with its data). */
describe('Redis unreachable: 503 unavailable with Retry-After, the pod stays ready, and recovers', function () {
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

  it("answers keyed and keyless routes 503 unavailable with Retry-After while Redis is down, stays ready (a Redis blip is not the pod's own trouble), serves again once it is back", async () => {
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
    // ready all the same: the load balancer keeps sending requests here, which get this pod's 503 with Retry-After
    // instead of its own bare 502 from every pod gone unready at once; the answer says Redis is down
    const stillReady = await readyz();
    expect(stillReady.status).to.equal(200);
    expect(stillReady.body).to.include({ ok: true, redis: 'down' });

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

/** A Redis that is up but full (maxmemory, noeviction): writes refused before they change anything. */
describe('Redis at maxmemory: a write answers 503 unavailable with Retry-After, counted, and nothing changed', function () {
  this.timeout(60_000);
  let server: EmbeddedRedis;
  let redis: RedisClient;
  let api: TestApi;
  let trader: Trader;

  before(async () => {
    server = await startEmbeddedRedis();
    redis = createRedis(server.url);
    api = await startTestApi(redis, { REDIS_URL: server.url, PUBLIC_RATE_LIMIT: '1000000' });
    trader = await createTrader(accountServices(redis));
    await new TestPrices(redis).set({ BTCUSDT: 60000 });
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
    await server?.stop();
  });

  const open = () => botCall(api.url, trader, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2 });
  const refusals = async (): Promise<number> => (await redisRefusals.get()).values.find((v) => v.labels.reason === 'oom')?.value ?? 0;

  it('answers the open 503 unavailable with Retry-After while Redis is full, and opens once memory is freed', async () => {
    const used = Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1]);
    await redis.config('SET', 'maxmemory', String(used + 512 * 1024));
    // one script fills past the limit (only a script's first write is checked)
    await redis.eval("for i = 1, 20000 do redis.call('SET', 'fill:' .. i, string.rep('x', 100)) end return 1", 0);
    const before = await refusals();

    const full = await open();
    expect(full.status, JSON.stringify(full.body)).to.equal(503);
    expect((full.body as { error: string }).error).to.equal('unavailable');
    expect(Number(full.headers.get('retry-after'))).to.be.within(1, 30);
    expect(await refusals()).to.be.greaterThan(before);

    await redis.config('SET', 'maxmemory', '0');
    const positions = await botCall<{ positions: unknown[] }>(api.url, trader, 'GET', '/positions');
    expect(positions.body.positions, 'the refused open left nothing').to.have.length(0);
    expect((await open()).status).to.equal(200);
  });
});

/** A shard that stops answering (SIGSTOP of the test's own redis-server): the command times out, the request answers. */
describe('Redis that does not answer: a request answers 503 within REDIS_COMMAND_TIMEOUT_MS', function () {
  this.timeout(60_000);
  const timeoutMs = 400;
  let server: EmbeddedRedis;
  let redis: RedisClient;
  let api: TestApi;
  let trader: Trader;
  let pid = 0;

  before(async () => {
    server = await startEmbeddedRedis();
    const config = configWith({ REDIS_URL: server.url, REDIS_COMMAND_TIMEOUT_MS: String(timeoutMs) });
    redis = createRedis(server.url, { commandTimeout: config.redisCommandTimeoutMs });
    api = await startTestApi(redis, { REDIS_URL: server.url, PUBLIC_RATE_LIMIT: '1000000' });
    trader = await createTrader(accountServices(redis));
    pid = Number(/^process_id:(\d+)/m.exec(await redis.info('server'))?.[1]);
  });
  after(async () => {
    if (pid) process.kill(pid, 'SIGCONT');
    await api?.close();
    if (redis) await closeRedis(redis);
    await server?.stop();
  });

  it('answers 503 unavailable with Retry-After in about the timeout while the server is paused, and serves once it resumes', async () => {
    expect((await botCall(api.url, trader, 'GET', '/account')).status).to.equal(200);
    process.kill(pid, 'SIGSTOP');
    const started = performance.now();
    const stuck = await getJson(`${api.url}/api/bot/v1/account`, {
      headers: { 'x-api-key': trader.apiKey },
      // without a command timeout the request would wait for as long as the server is paused
      signal: AbortSignal.timeout(10 * timeoutMs),
    });
    const tookMs = performance.now() - started;
    process.kill(pid, 'SIGCONT');
    expect(stuck.status, JSON.stringify(stuck.body)).to.equal(503);
    expect((stuck.body as { error: string }).error).to.equal('unavailable');
    expect(Number(stuck.headers.get('retry-after'))).to.be.within(1, 30);
    expect(tookMs).to.be.below(4 * timeoutMs);
    expect((await botCall(api.url, trader, 'GET', '/account')).status).to.equal(200);
  });
});

describe('maxmemory-policy: a service refuses to start on an evicting Redis', function () {
  this.timeout(30_000);
  let server: EmbeddedRedis;
  before(async () => {
    server = await startEmbeddedRedis();
  });
  after(async () => server?.stop());

  it('starts on noeviction, refuses volatile-lru naming the server and the policy', async () => {
    const redis = createRedis(server.url);
    try {
      expect(await checkEvictionPolicy(redis)).to.equal(true);
      await redis.config('SET', 'maxmemory-policy', 'volatile-lru');
      const refused = await startService(configWith({ REDIS_URL: server.url, ROLE: 'api', PORT: '0', LOG_LEVEL: 'silent' })).catch(
        (e: unknown) => e,
      );
      expect(refused).to.be.instanceOf(EvictionPolicyError);
      expect(String(refused)).to.include('volatile-lru').and.include(new URL(server.url).port);
    } finally {
      await closeRedis(redis);
    }
  });
});
