import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { freshRedis } from '../helpers/redis.js';
import { accountServices, createTrader } from '../helpers/trading.js';

describe('keyless rate limit shared by two API pods', () => {
  let redis: RedisClient;
  let podA: TestApi;
  let podB: TestApi;

  beforeEach(async () => {
    redis = await freshRedis();
    podA = await startTestApi(redis);
    podB = await startTestApi(redis);
  });
  afterEach(async () => {
    await Promise.all([podA.close(), podB.close()]);
    await closeRedis(redis);
  });

  it('answers the 61st call in a minute with 429 rate_limited and Retry-After', async () => {
    let lastReset = '';
    for (let call = 1; call <= 60; call += 1) {
      const response = await fetch(`${podA.url}/api/v1/ping`);
      await response.arrayBuffer();
      expect(response.status, `call ${call}`).to.equal(200);
      expect(response.headers.get('x-ratelimit-limit')).to.equal('60');
      expect(response.headers.get('x-ratelimit-remaining')).to.equal(String(60 - call));
      expect(response.headers.get('x-ratelimit-scope')).to.equal('ip');
      const reset = response.headers.get('x-ratelimit-reset') ?? '';
      if (lastReset) expect(reset).to.equal(lastReset);
      lastReset = reset;
    }
    expect(Number(lastReset)).to.be.within(Date.now() / 1000, Date.now() / 1000 + 61);
    const over = await getJson<{ ok: boolean; error: { code: string } }>(`${podA.url}/api/v1/calc/pnl?entry=1&exit=2&size=1`);
    expect(over.status).to.equal(429);
    expect(over.body.error.code).to.equal('rate_limited');
    expect(over.headers.get('x-ratelimit-remaining')).to.equal('0');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 60);
  });

  it('counts calls to both pods against one budget, exactly, under concurrency', async () => {
    const calls = Array.from({ length: 80 }, (_, i) => fetch(`${(i % 2 === 0 ? podA : podB).url}/api/v1/ping`));
    const responses = await Promise.all(calls);
    const statuses = await Promise.all(responses.map(async (r) => (await r.arrayBuffer(), r.status)));
    expect(statuses.filter((s) => s === 200)).to.have.length(60);
    expect(statuses.filter((s) => s === 429)).to.have.length(20);
    const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect([...remaining].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 60 }, (_, i) => i));
  });

  it('lets X-Forwarded-For name the client only when TRUST_PROXY says so', async () => {
    const trusting = await startTestApi(redis, { TRUST_PROXY: 'loopback', PUBLIC_RATE_LIMIT: '2' });
    try {
      for (const ip of ['203.0.113.1', '203.0.113.1', '203.0.113.2']) {
        const response = await fetch(`${trusting.url}/api/v1/ping`, { headers: { 'x-forwarded-for': ip } });
        await response.arrayBuffer();
        expect(response.status).to.equal(200);
      }
      const third = await fetch(`${trusting.url}/api/v1/ping`, { headers: { 'x-forwarded-for': '203.0.113.1' } });
      expect(third.status).to.equal(429);
      // The untrusting pod ignores the header: every call counts against the loopback address.
      const first = await fetch(`${podA.url}/api/v1/ping`, { headers: { 'x-forwarded-for': '198.51.100.9' } });
      expect(first.headers.get('x-ratelimit-remaining')).to.equal('59');
      const second = await fetch(`${podA.url}/api/v1/ping`, { headers: { 'x-forwarded-for': '198.51.100.10' } });
      expect(second.headers.get('x-ratelimit-remaining')).to.equal('58');
    } finally {
      await trusting.close();
    }
  });

  it('charges refused keys to the caller IP: 300 bad-key calls get 20 x 401, then 429 with Retry-After; a valid key is unaffected', async () => {
    const mod = accountServices(redis);
    const trader = await createTrader(mod, { plan: 'free' });
    const email = `revoked-${Date.now()}@example.org`;
    const revoked = await createTrader(mod, { plan: 'free', email });
    await mod.service.revokeKey(email, (await mod.service.listKeys(email)).keys[0].id);
    const call = async (key: string, pod: TestApi) => {
      const response = await fetch(`${pod.url}/api/v1/ping`, { headers: { 'x-api-key': key } });
      const body = (await response.json()) as { error?: { code: string } };
      return {
        status: response.status,
        code: body.error?.code,
        retryAfter: response.headers.get('retry-after'),
        scope: response.headers.get('x-ratelimit-scope'),
      };
    };
    const guesses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => call(i % 10 === 0 ? revoked.apiKey : `pd_guess_${i}`, i % 2 === 0 ? podA : podB)),
    );
    expect(guesses.filter((r) => r.status === 401)).to.have.length(20);
    const throttled = guesses.filter((r) => r.status === 429);
    expect(throttled).to.have.length(280);
    for (const r of throttled) {
      expect(r).to.include({ code: 'rate_limited', scope: 'bad_key' });
      expect(Number(r.retryAfter)).to.be.within(1, 60);
    }
    const valid = await call(trader.apiKey, podB);
    expect(valid).to.include({ status: 200, scope: 'key' });
    const keyless = await fetch(`${podA.url}/api/v1/ping`);
    await keyless.arrayBuffer();
    expect([keyless.status, keyless.headers.get('x-ratelimit-remaining')], 'the keyless budget is its own').to.deep.equal([200, '59']);
  });

  it('answers an unknown X-API-Key with 401 bad_api_key', async () => {
    const response = await getJson<{ ok: boolean; error: { code: string } }>(`${podA.url}/api/v1/ping`, {
      headers: { 'x-api-key': 'pd_not_a_real_key' },
    });
    expect(response.status).to.equal(401);
    expect(response.body.error.code).to.equal('bad_api_key');
  });
});
