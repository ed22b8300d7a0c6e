// @three-masters: per-client budgets counted across pods in Redis (rate-limiter keys in their own slots)
/**
 * Whose budget a request spends: the client's address as the socket shows it unless TRUST_PROXY names the proxy in
 * front, an IPv6 client by its /64, and wrong operator tokens on a budget per client.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { configWith, ConfigError } from '../../shared/config.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { freshRedis } from '../helpers/redis.js';
import { sitePost } from '../helpers/site.js';

const SHIPPED_CONFIG = join(import.meta.dirname, '../../ops/deploy/k8s/config.yaml');
const OPS_TOKEN = 'operator-token-0123456789';
const METRICS_TOKEN = 'metrics-token-0123456789';

interface ErrorBody {
  error: { code: string };
}

/** Status of a call from `from` (X-Forwarded-For), with headers of its own. */
async function statusFrom(url: string, from: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(url, { headers: { 'x-forwarded-for': from, ...headers } });
  await response.arrayBuffer();
  return response.status;
}

describe('client addresses: whose budget a request spends', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  const apis: TestApi[] = [];
  const start = async (env: Record<string, string>): Promise<TestApi> => {
    const api = await startTestApi(redis, env);
    apis.push(api);
    return api;
  };
  beforeEach(async () => {
    redis = await freshRedis();
  });
  afterEach(async () => {
    await Promise.all(apis.splice(0).map((api) => api.close()));
    await closeRedis(redis);
  });

  it('refuses a TRUST_PROXY that trusts any hop, and takes addresses and ranges', () => {
    for (const value of ['1', '2', 'true'])
      expect(() => configWith({ TRUST_PROXY: value }), value).to.throw(ConfigError, /^TRUST_PROXY: .*addresses or ranges/);
    for (const value of ['10.0.0.0/33', '2001:db8::/129', 'proxy.local', '10.0.0.1/8/1'])
      expect(() => configWith({ TRUST_PROXY: value }), value).to.throw(ConfigError, /^TRUST_PROXY: /);
    expect(configWith({ TRUST_PROXY: '10.0.0.0/8, loopback,2001:db8::/32,192.0.2.7' }).trustProxy).to.deep.equal([
      '10.0.0.0/8',
      'loopback',
      '2001:db8::/32',
      '192.0.2.7',
    ]);
    expect(configWith({}).trustProxy).to.equal(false);
  });

  it("with the shipped manifests' settings, a client's own X-Forwarded-For does not reset its keyless budget", async () => {
    const shipped = (parse(readFileSync(SHIPPED_CONFIG, 'utf8')) as { data: Record<string, string> }).data;
    const { HOST: _host, PORT: _port, METRICS_PORT: _metrics, ...env } = shipped;
    const api = await start({ ...env, LOG_LEVEL: 'silent', PUBLIC_RATE_LIMIT: '3' });
    const statuses = [];
    for (const from of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '198.51.100.1'])
      statuses.push(await statusFrom(`${api.url}/api/v1/ping`, from));
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429]);
  });

  it('counts an IPv6 client by its /64 on the keyless, the refused-key, the sign-in and the keyless site-call budgets', async () => {
    const api = await start({ TRUST_PROXY: 'loopback', PUBLIC_RATE_LIMIT: '2', BAD_KEY_RATE_LIMIT: '2' });
    const oneHost = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:fffe'];
    const neighbour = '2001:db8:1:3::1';
    const ping = `${api.url}/api/v1/ping`;
    const keyless = [];
    for (const from of oneHost) keyless.push(await statusFrom(ping, from));
    expect(keyless, 'keyless').to.deep.equal([200, 200, 429]);
    expect(await statusFrom(ping, neighbour), 'keyless, the next /64').to.equal(200);

    const refused = [];
    for (const from of oneHost) refused.push(await statusFrom(ping, from, { 'x-api-key': `pd_live_guess${from.length}` }));
    expect(refused, 'refused keys').to.deep.equal([401, 401, 429]);

    // sign-in links are keyless calls too: a pod with room in that budget, so only the sign-in one refuses
    const site = await start({ TRUST_PROXY: 'loopback', SIGNIN_IP_RATE_LIMIT: '2' });
    const signIns = [];
    for (const [i, from] of oneHost.entries())
      signIns.push((await sitePost(site.url, '/api/auth/start', { email: `v6-${i}@example.com` }, { 'x-forwarded-for': from })).status);
    expect(signIns, 'sign-in links').to.deep.equal([200, 200, 429]);
    const next = await sitePost(site.url, '/api/auth/start', { email: 'v6-next@example.com' }, { 'x-forwarded-for': neighbour });
    expect(next.status, 'sign-in, the next /64').to.equal(200);

    // a site call without a session spends the keyless budget of its /64 too (the ping's /64 above is spent: another one)
    const sitePositions = `${api.url}/api/site/positions`;
    const pageHost = ['2001:db8:1:4::1', '2001:db8:1:4::2', '2001:db8:1:4::3'];
    const sitePages = [];
    for (const from of pageHost) sitePages.push(await statusFrom(sitePositions, from));
    expect(sitePages, 'keyless site calls').to.deep.equal([401, 401, 429]);
    expect(await statusFrom(sitePositions, '2001:db8:1:5::1'), 'keyless site calls, the next /64').to.equal(401);
  });

  it('counts an IPv6 client by its /64 on the budget of new whsink addresses', async () => {
    const api = await start({ TRUST_PROXY: 'loopback', WHSINK_CLIENT_MAX_SINKS: '2' });
    const sink = async (token: string, from: string): Promise<number> => {
      const response = await fetch(`${api.url}/api/whsink/${token}`, { method: 'POST', headers: { 'x-forwarded-for': from }, body: '{}' });
      await response.arrayBuffer();
      return response.status;
    };
    const made = [];
    for (const [i, from] of ['2001:db8:7:7::1', '2001:db8:7:7::2', '2001:db8:7:7::3'].entries())
      made.push(await sink(`v6_sink_0000000${i}`, from));
    expect(made).to.deep.equal([200, 200, 429]);
    expect(await sink('v6_sink_00000009', '2001:db8:7:8::1'), 'the next /64').to.equal(200);
  });

  it('meters wrong operator tokens per client (an IPv6 one by its /64): then 429, the right token too, on every pod; others unaffected', async () => {
    // the dashboard's and the scrape's gates share one budget of wrong tokens per client
    const env = { TRUST_PROXY: 'loopback', OPS_TOKEN, METRICS_TOKEN, BAD_KEY_RATE_LIMIT: '3' };
    const [podA, podB] = [await start(env), await start(env)];
    const guesser = '203.0.113.50';
    const wrong = { authorization: 'Bearer operator-token-9999999999' };
    const right = { authorization: `Bearer ${METRICS_TOKEN}` };
    const guesses = [];
    for (const [i, pod] of [podA, podB, podA].entries())
      guesses.push(await statusFrom(`${pod.url}/metrics`, guesser, i === 1 ? right : wrong));
    expect(guesses, 'two wrong, one right: within the budget').to.deep.equal([401, 200, 401]);
    expect(await statusFrom(`${podB.url}/ops/queues`, guesser, wrong)).to.equal(401);
    const over = await getJson<ErrorBody>(`${podA.url}/ops/queues`, { headers: { 'x-forwarded-for': guesser, ...wrong } });
    expect([over.status, over.body.error.code]).to.deep.equal([429, 'rate_limited']);
    expect(Number(over.headers.get('retry-after'))).to.be.within(1, 60);
    expect(await statusFrom(`${podB.url}/metrics`, guesser, right), 'the right token, once over budget').to.equal(429);
    expect(await statusFrom(`${podB.url}/metrics`, '2001:db8:9::1', right), 'another client').to.equal(200);
    expect(await statusFrom(`${podB.url}/metrics`, guesser), 'no credentials: the challenge').to.equal(401);

    // an IPv6 guesser is one client per /64, whichever of its addresses it guesses from
    const v6 = [];
    for (const from of ['2001:db8:6:6::1', '2001:db8:6:6::2', '2001:db8:6:6::3', '2001:db8:6:6::4'])
      v6.push(await statusFrom(`${podA.url}/metrics`, from, wrong));
    expect(v6, 'guesses from one /64').to.deep.equal([401, 401, 401, 429]);
    expect(await statusFrom(`${podB.url}/metrics`, '2001:db8:6:7::1', right), 'the next /64').to.equal(200);
  });
});
