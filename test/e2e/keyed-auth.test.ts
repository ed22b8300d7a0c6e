// @three-masters: the key scripts over several keys (key-gate, key-create, key-revoke, key-usage)
import { expect } from 'chai';
import fc from 'fast-check';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { systemClock } from '../../shared/core/clock.js';
import { ERROR_CODES } from '../../shared/core/errors.js';
import { StoredApiKeyResolver, type ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { type CreatedKey } from '../../shared/paper/accounts/account-service.js';
import { createAccountServices, type AccountServices } from '../../shared/paper/accounts/account-services.js';
import { DAY_MS, utcDay } from '../../shared/paper/accounts/plan-terms.js';
import type { UsageBody } from '../../shared/paper/accounts/usage-view.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, snapshotRedis } from '../helpers/redis.js';

interface V1Error {
  error: string;
  message: string;
}
interface V2Error {
  ok: false;
  error: { code: string; message: string };
  ts: number;
}

describe('keyed routes: API keys, plan headers, per-key budgets and /usage', () => {
  let redis: RedisClient;
  let api: TestApi;
  let mod: AccountServices;
  const usageV1 = (): string => `${api.url}/api/bot/v1/usage`;
  const usageV2 = (): string => `${api.url}/api/bot/v2/usage`;
  const withKey = (key: string): RequestInit => ({ headers: { 'x-api-key': key } });

  before(async () => {
    redis = await freshRedis();
    // the refused-key budget is tested in rate-limit.test.ts; here hostile keys get their 401s
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', BAD_KEY_RATE_LIMIT: '1000000' });
    mod = createAccountServices({ redis });
  });
  after(async () => {
    await api.close();
    await closeRedis(redis);
  });

  async function expect401(code: string, init: RequestInit = {}, query = ''): Promise<void> {
    const v1 = await getJson<V1Error>(`${usageV1()}${query}`, init);
    expect(v1.status, `v1 ${code}`).to.equal(401);
    expect(Object.keys(v1.body).sort()).to.deep.equal(['error', 'message']);
    expect(v1.body.error).to.equal(code);
    expect(v1.body.message).to.be.a('string').and.not.equal('');
    const v2 = await getJson<V2Error>(`${usageV2()}${query}`, init);
    expect(v2.status, `v2 ${code}`).to.equal(401);
    expect(v2.body.ok).to.equal(false);
    expect(v2.body.error.code).to.equal(code);
    expect(v2.body.error.message).to.equal(v1.body.message);
    expect(v2.body.ts).to.be.a('number');
    expect(v2.headers.get('x-pd-plan')).to.equal(null);
  }

  it('answers 401 missing_api_key without a key (also for an empty header or parameter), in the v1 and v2 shapes', async () => {
    await expect401('missing_api_key');
    await expect401('missing_api_key', withKey(''));
    await expect401('missing_api_key', {}, '?api_key=');
  });

  it('answers 401 bad_api_key for an unknown key, well formed or not, from the header or the query', async () => {
    await expect401('bad_api_key', withKey(`pd_${'A'.repeat(40)}`));
    await expect401('bad_api_key', withKey('not-a-key'));
    await expect401('bad_api_key', {}, `?api_key=pd_${'b'.repeat(40)}`);
  });

  it('answers 401 revoked_key for a revoked key; its record and usage history stay', async () => {
    const created = await mod.service.createKey({ email: 'revoke@example.com', name: 'old' });
    expect((await fetch(usageV1(), withKey(created.apiKey))).status).to.equal(200);
    await waitFor(async () => (await mod.keys.get(created.account.id, created.key.id))?.calls === 1, 2000, 'the call counted');
    await mod.service.revokeKey('revoke@example.com', created.key.id);
    await expect401('revoked_key', withKey(created.apiKey));
    await expect401('revoked_key', {}, `?api_key=${created.apiKey}`);
    const record = await mod.keys.get(created.account.id, created.key.id);
    expect(record).to.include({ calls: 1, name: 'old' });
    expect(record?.revokedAt).to.be.a('number');
    const history = await mod.keys.dailyCalls(created.account.id, created.key.id, Date.now());
    expect(history.reduce((sum, day) => sum + day.calls, 0)).to.equal(1);
  });

  it('accepts the key as ?api_key= and meters it per key', async () => {
    const created = await mod.service.createKey({ email: 'query@example.com', name: 'q' });
    const response = await getJson<UsageBody>(`${usageV1()}?api_key=${created.apiKey}`);
    expect(response.status).to.equal(200);
    expect(response.body.key_name).to.equal('q');
    expect(response.headers.get('x-ratelimit-scope')).to.equal('key');
    expect(response.headers.get('x-ratelimit-limit')).to.equal('120');
    expect(response.headers.get('x-ratelimit-remaining')).to.equal('119');
    const viaHeader = await fetch(usageV2(), withKey(created.apiKey));
    expect(viaHeader.headers.get('x-ratelimit-remaining')).to.equal('118');
    // keyless routes meter a query key too
    const ping = await fetch(`${api.url}/api/v1/ping?api_key=${created.apiKey}`);
    expect(ping.headers.get('x-ratelimit-scope')).to.equal('key');
    expect(ping.headers.get('x-ratelimit-remaining')).to.equal('117');
  });

  it("gives every key its own budget: a Free key's 121st call in a minute is 429 (scope key) while another key of the account still has its own", async () => {
    const first = await mod.service.createKey({ email: 'budget@example.com', name: 'busy' });
    const second = await mod.service.createKey({ email: 'budget@example.com', name: 'quiet' });
    for (let call = 1; call <= 120; call += 1) {
      const response = await fetch(usageV1(), withKey(first.apiKey));
      await response.arrayBuffer();
      expect(response.status, `call ${call}`).to.equal(200);
    }
    const over = await getJson<V1Error & { limit: number; retry_after: number }>(usageV1(), withKey(first.apiKey));
    expect(over.status).to.equal(429);
    expect(over.body.error).to.equal('rate_limited');
    expect(over.headers.get('x-ratelimit-scope')).to.equal('key');
    expect(over.headers.get('x-ratelimit-limit')).to.equal('120');
    expect(Number(over.headers.get('retry-after'))).to.be.within(1, 60);
    const other = await fetch(usageV1(), withKey(second.apiKey));
    expect(other.status).to.equal(200);
    expect(other.headers.get('x-ratelimit-remaining')).to.equal('119');
    // the refused call is not counted as a call
    await api.flush();
    expect((await mod.keys.get(first.account.id, first.key.id))?.calls).to.equal(120);
    const usage = await getJson<UsageBody>(usageV1(), withKey(second.apiKey));
    expect(usage.body.used.keys).to.equal(2);
    expect(usage.body.used.calls_today).to.equal(1);
  });

  it('sends X-PD-Plan on keyed responses and the expiry headers only in the last 14 days of a paid plan; an ended plan is Free', async () => {
    const created = await mod.service.createKey({ email: 'plan@example.com' });
    const free = await fetch(usageV1(), withKey(created.apiKey));
    expect(free.headers.get('x-pd-plan')).to.equal('free');
    expect(free.headers.get('x-pd-plan-expires')).to.equal(null);
    await mod.service.setPlan('plan@example.com', 'pro', 10);
    const pro = await getJson<UsageBody>(usageV2(), withKey(created.apiKey));
    expect(pro.headers.get('x-pd-plan')).to.equal('pro');
    expect(pro.headers.get('x-pd-plan-days-left')).to.equal('10');
    const until = (await mod.accounts.get(created.account.id))?.plan.until ?? 0;
    expect(pro.headers.get('x-pd-plan-expires')).to.equal(utcDay(until));
    expect(pro.headers.get('x-ratelimit-limit')).to.equal('600');
    expect((pro.body as unknown as { data: UsageBody }).data).to.include({ plan: 'pro', plan_until: until });
    await mod.service.setPlan('plan@example.com', 'pro', 30);
    const longer = await fetch(usageV1(), withKey(created.apiKey));
    expect(longer.headers.get('x-pd-plan')).to.equal('pro');
    expect(longer.headers.get('x-pd-plan-days-left')).to.equal(null);
    expect(longer.headers.get('x-pd-plan-expires')).to.equal(null);
    // the paid term ended a moment ago: Free again, and the service keeps answering
    await redis.hset(keys.accountProfile(created.account.id), 'plan_until', String(Date.now() - 1000));
    const ended = await getJson<UsageBody>(usageV1(), withKey(created.apiKey));
    expect(ended.status).to.equal(200);
    expect(ended.headers.get('x-pd-plan')).to.equal('free');
    expect(ended.headers.get('x-ratelimit-limit')).to.equal('120');
    expect(ended.body).to.include({ plan: 'free', plan_until: null });
    expect(ended.body.limits.requests_per_minute).to.equal(120);
  });

  it('answers /usage in v1 bare and v2 envelope; a key sees its own account and calls only', async () => {
    const a1 = await mod.service.createKey({ email: 'iso-a@example.com', name: 'a-main' });
    const a2 = await mod.service.createKey({ email: 'iso-a@example.com', name: 'a-book', book: 'swing' });
    const b: CreatedKey = await mod.service.createKey({ email: 'iso-b@example.com', name: 'b-main', plan: 'max' });
    for (let i = 0; i < 5; i += 1) await (await fetch(usageV1(), withKey(b.apiKey))).arrayBuffer();
    for (let i = 0; i < 2; i += 1) await (await fetch(usageV1(), withKey(a1.apiKey))).arrayBuffer();
    await api.flush();
    const v1 = await getJson<UsageBody>(usageV1(), withKey(a1.apiKey));
    expect(v1.status).to.equal(200);
    expect(Object.keys(v1.body)).to.have.members([
      'key_name',
      'account',
      'plan',
      'plan_source',
      'plan_until',
      'plan_days_left',
      'plan_price_usd',
      'limits',
      'features',
      'used',
      'plans',
      'free_month',
      'usage_30d',
    ]);
    expect(v1.body).to.include({
      key_name: 'a-main',
      account: 'main',
      plan: 'free',
      plan_source: null,
      plan_until: null,
      plan_days_left: null,
      plan_price_usd: 0,
    });
    expect(v1.body.used).to.deep.equal({ keys: 2, books: 1, calls_today: 2 });
    expect(v1.body.limits).to.deep.equal({
      requests_per_minute: 120,
      max_keys: 3,
      max_open_positions: 50,
      max_books: 1,
      max_resting_orders: 20,
      trade_history_days: 30,
      report_max_days: 30,
      websocket: 3,
      data_api_requests_per_minute: 120,
    });
    expect(v1.body.features).to.include({ webhooks: 0, trailing_stops: true, modify_order: true, dry_run: true, fee_venues: 9 });
    expect(v1.body.plans.map((p) => [p.plan, p.price_usd, p.features.webhooks])).to.deep.equal([
      ['free', 0, 0],
      ['pro', 29, 3],
      ['max', 79, 15],
      ['business', 159, 50],
    ]);
    // Free without a trial: no free month (the original's null, not a zero count)
    expect(v1.body.free_month).to.equal(null);
    expect((await getJson<UsageBody>(usageV1(), withKey(a2.apiKey))).body.account).to.equal('swing');
    expect(v1.body.usage_30d).to.have.length(30);
    expect(v1.body.usage_30d.at(-1)).to.deep.equal({ day: utcDay(Date.now()), calls: 2 });
    expect(v1.body.usage_30d[0].day).to.equal(utcDay(Date.now() - 29 * DAY_MS));
    expect(JSON.stringify(v1.body)).to.not.contain('iso-b').and.not.contain(b.key.id).and.not.contain(a1.apiKey);
    const v2 = await getJson<{ ok: boolean; data: UsageBody; ts: number }>(usageV2(), withKey(b.apiKey));
    expect(v2.body.ok).to.equal(true);
    expect(v2.body.data).to.include({
      key_name: 'b-main',
      account: 'main',
      plan: 'max',
      plan_source: 'grant',
      plan_days_left: 30,
      plan_price_usd: 79,
      free_month: null,
    });
    expect(v2.body.data.features.webhooks).to.equal(15);
    expect(v2.body.data.limits.data_api_requests_per_minute).to.equal(2000);
    expect(v2.body.data.used).to.deep.equal({ keys: 1, books: 0, calls_today: 5 });
  });

  it('looks a key up once per keyed request: the rate limiter hands its result to the route', async () => {
    const created = await mod.service.createKey({ email: 'once@example.com', name: 'once' });
    const stored = new StoredApiKeyResolver({ accounts: mod.accounts, keys: mod.keys, clock: systemClock });
    let lookups = 0;
    const counting: ApiKeyResolver = {
      resolve: (apiKey) => {
        lookups += 1;
        return stored.resolve(apiKey);
      },
    };
    const pod = await startTestApi(redis, {}, { apiKeys: counting });
    try {
      const response = await getJson<UsageBody>(`${pod.url}/api/bot/v1/usage`, withKey(created.apiKey));
      expect(response.status).to.equal(200);
      expect(response.body.key_name).to.equal('once');
      expect(lookups).to.equal(1);
    } finally {
      await pod.close();
    }
  });

  it('answers hostile keys and queries on /usage with 401 or 200, never a 5xx, and writes nothing but rate counters', async function () {
    this.timeout(60_000);
    const created = await mod.service.createKey({ email: 'hostile@example.com' });
    const withoutRate = (snapshot: Map<string, string>): Map<string, string> =>
      new Map([...snapshot].filter(([key]) => !key.startsWith('rl:')));
    await api.flush();
    const before = withoutRate(await snapshotRedis(redis));
    const printable = fc.string({
      unit: fc.constantFrom(...'!"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~ '.split('')),
      maxLength: 200,
    });
    const anyText = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(
        'pd_',
        `pd_${'0'.repeat(40)}`,
        `${created.apiKey} `,
        created.apiKey.toUpperCase(),
        `${created.apiKey}\u0000`,
        '💥',
        '%00',
        'null',
        '[]',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.option(printable),
        fc.option(anyText),
        fc.boolean(),
        fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 3 }),
        async (header, query, v2, extra) => {
          const search = new URLSearchParams(extra);
          if (query !== null) search.append('api_key', query);
          const headers: Record<string, string> = header === null ? {} : { 'x-api-key': header };
          const response = await fetch(`${v2 ? usageV2() : usageV1()}?${search.toString()}`, { headers });
          const body = (await response.json()) as V1Error & V2Error;
          const valid = header === created.apiKey || ((header === null || header.trim() === '') && query === created.apiKey);
          if (response.status === 200) {
            expect(valid, JSON.stringify({ header, query })).to.equal(true);
            return;
          }
          expect(response.status, JSON.stringify({ header, query })).to.equal(401);
          const code = v2 ? body.error.code : body.error;
          expect(Object.keys(ERROR_CODES)).to.include(code);
          expect(['missing_api_key', 'bad_api_key']).to.include(code);
        },
      ),
      { numRuns: 200 },
    );
    // the valid key's calls are counted; everything else left no trace
    await api.flush();
    const after = withoutRate(await snapshotRedis(redis));
    const changed = [...after.keys()].filter((key) => after.get(key) !== before.get(key));
    expect(
      changed.every((key) => key.startsWith(`acct:{${created.account.id}}:key:${created.key.id}`)),
      changed.join(', '),
    ).to.equal(true);
  });
});
