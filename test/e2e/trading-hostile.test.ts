// @three-masters: refused money scripts write nothing on any master
import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import fc from 'fast-check';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { createApp } from '../../api/app.js';
import { configWith } from '../../shared/config.js';
import { ERROR_CODES } from '../../shared/core/errors.js';
import { createLogger } from '../../shared/core/logger.js';
import { closeRedis } from '../../shared/redis/connection.js';
import type { RouteCatalog } from '../../api/routing/route-catalog.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { callCatalogRoute, catalogRoute, expectOkOrNamedRefusal } from '../helpers/catalog-call.js';
import { HOSTILE_STRINGS } from '../helpers/hostile.js';
import { freshRedis, snapshotRedis, testRedisUrl } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

const hostileScalar = fc.oneof(
  fc.constantFrom<unknown>(
    ...HOSTILE_STRINGS,
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'main',
    'bp0',
    '-1',
    '-0',
    '1e-400',
    false,
    null,
    0,
    -1,
    -0,
    1e308,
    -1e308,
    5e-324,
    2 ** 53 + 1,
  ),
  fc.string({ maxLength: 40 }),
  fc.double(),
  fc.integer(),
);
/** A field: absent, a hostile scalar, or a nested array or object of them. */
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', 'price'), hostileScalar, { maxKeys: 2 }) },
);

const isRateOrUsage = (key: string): boolean => key.startsWith('rl:') || /:key:/.test(key);
/** A read model's cached answer (/equity, /report): a GET may store what it computed; it is not the book's state. */
const isReadCache = (key: string): boolean => /:an:cache:/.test(key);
/** The book's simulation profile: a random body that is a valid /realism or /sim change is stored, as it should be. */
const isSimProfile = (key: string): boolean => /:sim$/.test(key);
const stable = (snapshot: Map<string, string>): Map<string, string> =>
  new Map([...snapshot].filter(([key]) => !isRateOrUsage(key) && !isReadCache(key) && !isSimProfile(key)));

/** A 4xx whose error names a code of ERROR_CODES (the v1 bot routes answer the bare code, the others an object). */
function expectNamedRefusal(path: string, status: number, text: string, where: string): true {
  expect(status, where).to.be.within(400, 499);
  const parsed = JSON.parse(text) as { error?: string | { code: string } };
  const code = path.startsWith('/api/bot/v1/') ? parsed.error : (parsed.error as { code: string }).code;
  expect(Object.keys(ERROR_CODES), where).to.include(code);
  return true;
}

describe('hostile JSON bodies on every keyed POST route', function () {
  this.timeout(180_000);
  let redis: RedisClient;
  let api: TestApi;
  let trader: Trader;
  let routes: { path: string; fields: string[] }[];
  let catalog: RouteCatalog;
  /** A bot route's /v2 alias shares its /v1 twin's definition: the twin is fuzzed over HTTP, the alias through the catalog. */
  const isAlias = (path: string, among: { path: string }[]): boolean =>
    path.startsWith('/api/bot/v2/') && among.some((route) => route.path === path.replace('/api/bot/v2/', '/api/bot/v1/'));

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '100000000' });
    await new TestPrices(redis).set({ BTCUSDT: 60000 });
    trader = await createTrader(accountServices(redis), { plan: 'business' });
    const config = configWith({ REDIS_URL: testRedisUrl() });
    catalog = createApp({ domain: createDomain({ config, redis }), logger: createLogger(config) }).catalog;
    routes = catalog.routes
      .filter((route) => route.method === 'post' && route.keyed && route.body)
      .map((route) => ({
        path: route.path,
        fields: Object.keys((route.body?.describe() as { keys?: Record<string, unknown> }).keys ?? {}),
      }));
    // one position, so close and sltp have something a lucky id could hit
    const opened = await botCall(api.url, trader, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2 });
    expect(opened.status).to.equal(200);
  });
  after(async () => {
    await api.close();
    await closeRedis(redis);
  });

  it('covers the trading routes', () => {
    for (const path of ['/open', '/close', '/close_all', '/sltp', '/reset', '/fees', '/modify_order', '/cancel_order']) {
      if (path === '/close_all') continue; // takes no body
      expect(routes.map((r) => r.path)).to.include(`/api/bot/v1${path}`);
      expect(routes.map((r) => r.path)).to.include(`/api/bot/v2${path}`);
    }
  });

  it('answers random and hostile bodies with a 4xx and a named code, never a 500, and writes nothing', async () => {
    const before = stable(await snapshotRedis(redis));
    for (const route of routes) {
      const body = fc.oneof(
        { weight: 8, arbitrary: fc.record(Object.fromEntries(route.fields.map((name) => [name, hostileValue])), { requiredKeys: [] }) },
        { weight: 1, arbitrary: fc.constantFrom<unknown>([], [1, 2], 'text', 42, null, true) },
      );
      if (isAlias(route.path, routes)) {
        const bound = catalogRoute(catalog, 'post', route.path);
        await fc.assert(
          fc.asyncProperty(body, async (payload) => {
            // what the JSON parser would hand the route
            const answer = await callCatalogRoute(bound, { body: JSON.parse(JSON.stringify(payload)) as unknown, apiKey: trader.apiKey });
            const where = `${route.path} ${JSON.stringify(payload)} -> ${answer.status}`;
            if (answer.status === 200) expect(/\/(fees|realism|sim)$/.test(route.path), where).to.equal(true);
            return expectOkOrNamedRefusal(answer, where);
          }),
          { numRuns: 80 },
        );
        continue;
      }
      await fc.assert(
        fc.asyncProperty(body, async (payload) => {
          const response = await fetch(`${api.url}${route.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': trader.apiKey },
            body: JSON.stringify(payload),
          });
          const text = await response.text();
          const where = `${route.path} ${JSON.stringify(payload)} -> ${response.status} ${text.slice(0, 200)}`;
          // valid: POST /fees with venue null clears nothing set; /realism and /sim keep every field a body omits
          if (response.status === 200) {
            expect(/\/(fees|realism|sim)$/.test(route.path), where).to.equal(true);
            return true;
          }
          return expectNamedRefusal(route.path, response.status, text, where);
        }),
        { numRuns: 80 },
      );
    }
    expect(stable(await snapshotRedis(redis))).to.deep.equal(before);
  });

  it('answers hostile queries on every keyed GET route, with a valid key, with 200 or a named 4xx, and writes nothing', async () => {
    const gets = catalog.routes
      .filter((route) => route.method === 'get' && route.keyed && route.path.startsWith('/api/bot/'))
      .map((route) => ({
        path: route.path,
        params: Object.keys((route.query?.describe() as { keys?: Record<string, unknown> } | undefined)?.keys ?? {}),
      }));
    expect(gets.map((g) => g.path)).to.include.members([
      '/api/bot/v1/positions',
      '/api/bot/v1/trades',
      '/api/bot/v1/markets',
      '/api/bot/v2/account',
    ]);
    const before = stable(await snapshotRedis(redis));
    const param = fc.oneof(
      fc.constant(undefined),
      hostileScalar.map(String),
      fc.array(hostileScalar.map(String), { minLength: 2, maxLength: 3 }),
    );
    for (const route of gets) {
      const paramsArb = fc.record(Object.fromEntries([...route.params, 'extra'].map((name) => [name, param])), { requiredKeys: [] });
      if (isAlias(route.path, gets)) {
        const bound = catalogRoute(catalog, 'get', route.path);
        await fc.assert(
          fc.asyncProperty(paramsArb, async (params) => {
            // as Express parses the query: an absent parameter is not there
            const query = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
            const answer = await callCatalogRoute(bound, { query, apiKey: trader.apiKey });
            return expectOkOrNamedRefusal(answer, `${route.path} ${JSON.stringify(query)} -> ${answer.status}`);
          }),
          { numRuns: 40 },
        );
        continue;
      }
      await fc.assert(
        fc.asyncProperty(paramsArb, async (params) => {
          const search = new URLSearchParams();
          for (const [name, value] of Object.entries(params))
            for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(name, item as string);
          const response = await fetch(`${api.url}${route.path}?${search}`, { headers: { 'x-api-key': trader.apiKey } });
          const text = await response.text();
          const where = `${route.path}?${search} -> ${response.status} ${text.slice(0, 200)}`;
          if (response.status === 200) return true;
          return expectNamedRefusal(route.path, response.status, text, where);
        }),
        { numRuns: 40 },
      );
    }
    expect(stable(await snapshotRedis(redis))).to.deep.equal(before);
  });

  it('refuses bodies that are not JSON objects, and oversized ones, without a 500', async () => {
    for (const raw of ['{"symbol":', '5', '"x"', 'null', `{"symbol":"${'A'.repeat(70_000)}"}`]) {
      const r = await botCall(api.url, trader, 'POST', '/open', raw);
      expect(r.status, raw.slice(0, 20)).to.be.within(400, 499);
    }
  });
});
