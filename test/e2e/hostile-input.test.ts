import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import fc from 'fast-check';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { createApp } from '../../api/app.js';
import { ERROR_CODES } from '../../shared/core/errors.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { HOSTILE_STRINGS } from '../helpers/hostile.js';
import { seedMacroSnapshots } from '../helpers/macro-seed.js';
import { changedKeys, freshRedis, isRequestBookkeeping, snapshotRedis, testRedisUrl } from '../helpers/redis.js';
import { accountServices, createTrader } from '../helpers/trading.js';

const hostileValue = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS, '-1e400', 'true'),
  fc.string({ maxLength: 40 }),
  fc.double().map(String),
  fc.integer().map(String),
);
/** A parameter may be absent, a single hostile string, or repeated (Express then hands the route an array). */
const hostileParam = fc.oneof(fc.constant(undefined), hostileValue, fc.array(hostileValue, { minLength: 2, maxLength: 3 }));

function toQuery(params: Record<string, string | string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, item);
  }
  return search.toString();
}

const isRateLimitKey = (key: string): boolean => key.startsWith('rl:');

function withoutRateLimits(snapshot: Map<string, string>): Map<string, string> {
  return new Map([...snapshot].filter(([key]) => !isRateLimitKey(key)));
}

describe('hostile input on every route', () => {
  let redis: RedisClient;
  let api: TestApi;
  let routes: { method: string; path: string; params: string[] }[];

  before(async () => {
    redis = await freshRedis();
    // no refresh job runs here: /api/v1/coins without a category answers from this seed instead of 503 (not an input error)
    await seedMacroSnapshots(redis);
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' });
    const config = configWith({ REDIS_URL: testRedisUrl() });
    const { catalog } = createApp({ domain: createDomain({ config, redis }), logger: createLogger(config) });
    routes = catalog.routes
      .filter((route) => route.query !== undefined)
      .map((route) => ({
        method: route.method,
        path: route.path,
        params: Object.keys((route.query?.describe() as { keys?: Record<string, unknown> }).keys ?? {}),
      }));
  });
  after(async () => {
    await api.close();
    await closeRedis(redis);
  });

  it('covers every route that takes input', () => {
    expect(routes.length).to.be.greaterThan(0);
  });

  it('answers random and hostile queries with a 4xx and a named code, never a 500, and changes nothing in Redis', async function () {
    this.timeout(120_000);
    const before = withoutRateLimits(await snapshotRedis(redis));
    for (const route of routes) {
      const paramsArb = fc.record(Object.fromEntries(route.params.map((name) => [name, hostileParam])), { requiredKeys: [] });
      await fc.assert(
        fc.asyncProperty(paramsArb, async (params) => {
          const response = await fetch(`${api.url}${route.path}?${toQuery(params as Record<string, string | string[] | undefined>)}`);
          const body = (await response.json()) as { ok?: boolean; error?: { code: string } | string };
          if (response.status === 200) return true; // some random strings are valid input
          const where = `${route.path} ${JSON.stringify(params)}`;
          expect(response.status, where).to.be.within(400, 499);
          // Bot v1 keeps the original's flat { error: code } body; every other route answers in the envelope.
          const code = route.path.startsWith('/api/bot/v1/')
            ? body.error
            : (expect(body.ok, where).to.equal(false), (body.error as { code: string })?.code);
          expect(Object.keys(ERROR_CODES), where).to.include(code);
          return true;
        }),
        { numRuns: 60 },
      );
    }
    expect(withoutRateLimits(await snapshotRedis(redis))).to.deep.equal(before);
  });

  it('refuses a malformed JSON body on every route that takes one with 400 invalid_json, writing nothing', async () => {
    const config = configWith({ REDIS_URL: testRedisUrl() });
    const bodyRoutes = createApp({ domain: createDomain({ config, redis }), logger: createLogger(config) }).catalog.routes.filter(
      (route) => route.body !== undefined,
    );
    expect(bodyRoutes.length).to.be.greaterThan(0);
    // a keyed route gets a valid key: without one its 401 would come first and hide how it reads the body
    const trader = await createTrader(accountServices(redis));
    const before = await snapshotRedis(redis);
    for (const route of bodyRoutes) {
      const response = await fetch(`${api.url}${route.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(route.keyed ? { 'x-api-key': trader.apiKey } : {}) },
        body: '{"broken":',
      });
      const body = (await response.json()) as { error: { code: string } | string };
      expect(response.status, route.path).to.equal(400);
      expect(typeof body.error === 'string' ? body.error : body.error.code, route.path).to.equal('invalid_json');
    }
    expect(changedKeys(before, await snapshotRedis(redis), isRequestBookkeeping)).to.deep.equal([]);
  });
});
