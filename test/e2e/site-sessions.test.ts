// @three-masters: every session of an account, its index and the sign-in links over several keys
/**
 * Site sessions (issue 34, part 3 and the site's items of part 6): the account's index outlives every session in it, a
 * session's absolute 90 days, the operator ending sessions from the CLI, the cookie's __Host- prefix, key answers kept
 * out of caches, and a page's calls metered on its account's plan rather than its IP's keyless budget.
 */
import { expect } from 'chai';
import type { Clock } from '../../shared/core/clock.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { SESSION_MAX_AGE_MS, SESSION_TTL_MS } from '../../shared/site/sessions.js';
import { secretDigest } from '../../shared/site/sign-in.js';
import { runCli } from '../../ops/cli/cli-run.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { finishSignIn, signIn, type SiteVisitor } from '../helpers/site.js';
import { accountServices, botCall } from '../helpers/trading.js';

interface Envelope<T = Record<string, unknown>> {
  ok: boolean;
  data: T;
  error: { code: string };
}
type Me = Envelope<{ signed_in: boolean }>;
const DAY_MS = 86_400_000;

/** The wall clock plus an offset the test moves: the API's session checks read it. */
class TestClock implements Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
}

describe('site: sessions (lifetimes, the operator, the cookie, the budget)', () => {
  let redis: RedisClient;
  let api: TestApi;
  const clock = new TestClock();
  let n = 0;
  const email = (): string => `sess${++n}-${Date.now()}@example.org`;
  const signedIn = async (visitor: SiteVisitor): Promise<boolean> => (await visitor.call<Me>('GET', '/api/auth/me')).body.data.signed_in;

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(
      redis,
      { PUBLIC_RATE_LIMIT: '1000000', SIGNIN_IP_RATE_LIMIT: '1000', SIGNIN_EMAIL_RATE_LIMIT: '1000' },
      { clock },
    );
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
  });
  beforeEach(() => {
    clock.offsetMs = 0;
  });

  it("keeps the account's session index as long as any session in it can live", async () => {
    const visitor = await signIn(api.url, redis, email());
    const account = (await visitor.call<Envelope<{ account: string }>>('GET', '/api/auth/me')).body.data.account;
    const indexTtlMs = await redis.pttl(`site:account-sessions:${account}`);
    // a session used every day lives its full 90 days: sign out everywhere must still find it then
    expect(indexTtlMs).to.be.at.least(SESSION_MAX_AGE_MS - 60_000);
    const sessionTtlMs = await redis.pttl(`site:session:${secretDigest(visitor.cookie)}`);
    expect(sessionTtlMs).to.be.within(SESSION_TTL_MS - 60_000, SESSION_TTL_MS);
  });

  it('ends a session 90 days after it began however often it is used; its last days slide no further', async () => {
    const visitor = await signIn(api.url, redis, email());
    const record = `site:session:${secretDigest(visitor.cookie)}`;
    clock.offsetMs = 89 * DAY_MS;
    const late = await visitor.call<Me>('GET', '/api/auth/me');
    expect(late.body.data.signed_in).to.equal(true);
    // one day left: the record's expiry and the cookie's Max-Age say so, not 30 days
    expect(await redis.ttl(record)).to.be.within(DAY_MS / 1000 - 60, DAY_MS / 1000);
    const maxAge = Number(/Max-Age=(\d+)/.exec(late.headers.get('set-cookie') ?? '')?.[1]);
    expect(maxAge).to.be.within(DAY_MS / 1000 - 60, DAY_MS / 1000);
    clock.offsetMs = SESSION_MAX_AGE_MS + 1_000;
    expect(await signedIn(visitor)).to.equal(false);
    expect(await redis.exists(record)).to.equal(0);
  });

  it('ends every session of an account with npm run cli -- sessions end --email E', async () => {
    const address = email();
    const phone = await signIn(api.url, redis, address);
    const laptop = await signIn(api.url, redis, address);
    const other = await signIn(api.url, redis, email());
    const ran = await runCli(['sessions', 'end', '--email', address.toUpperCase(), '--json'], { REDIS_URL: testRedisUrl() });
    expect(ran.code, ran.stderr).to.equal(0);
    expect(JSON.parse(ran.stdout)).to.deep.equal({ email: address, sessions_ended: 2 });
    expect([await signedIn(phone), await signedIn(laptop), await signedIn(other)]).to.deep.equal([false, false, true]);
    expect((await phone.call('POST', '/api/bot/key', { act: 'create' })).status).to.equal(401);
    const unknown = await runCli(['sessions', 'end', '--email', email()], { REDIS_URL: testRedisUrl() });
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('not_found');
  });

  it('revokes a key from the CLI and, with --end-sessions, the sessions that could make a new one', async () => {
    const address = email();
    const visitor = await signIn(api.url, redis, address);
    const made = await visitor.call<{ created: { k: string; key: string } }>('POST', '/api/bot/key', { act: 'create' });
    const { k, key } = made.body.created;
    const plain = await runCli(['keys', 'revoke', '--email', address, '--id', k], { REDIS_URL: testRedisUrl() });
    expect(plain.code, plain.stderr).to.equal(0);
    // without the flag the session stays
    expect(await signedIn(visitor)).to.equal(true);
    const cut = await runCli(['keys', 'revoke', '--email', address, '--id', k, '--end-sessions'], { REDIS_URL: testRedisUrl() });
    expect(cut.code, cut.stderr).to.equal(0);
    expect(cut.stdout).to.contain('ended 1 site session(s)');
    expect((await botCall(api.url, key, 'GET', '/usage')).status).to.equal(401);
    const again = await visitor.call<{ error?: { code: string } }>('POST', '/api/bot/key', { act: 'create' });
    expect([again.status, again.body.error?.code]).to.deep.equal([401, 'login_required']);
    const misplaced = await runCli(['keys', 'list', '--email', address, '--end-sessions'], { REDIS_URL: testRedisUrl() });
    expect(misplaced.code).to.equal(2);
  });

  it('names the cookie __Host-pd_session when Secure, and takes no plain pd_session in its place', async () => {
    const visitor = await signIn(api.url, redis, email());
    expect(visitor.cookieHeader).to.match(/^__Host-pd_session=/);
    // a cookie a sibling host or plain http could set, under the unprefixed name, is not a session
    const shadow = await getJson<Me>(`${api.url}/api/auth/me`, { headers: { cookie: `pd_session=${visitor.cookie}` } });
    expect(shadow.body.data.signed_in).to.equal(false);
    const plainHttp = await startTestApi(redis, { SITE_COOKIE_SECURE: 'false' });
    try {
      const finished = await finishSignIn(plainHttp.url, redis, email());
      expect(finished.headers.get('set-cookie')).to.match(/^pd_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    } finally {
      await plainHttp.close();
    }
  });

  it('answers key management with Cache-Control: no-store (a created key is in the answer)', async () => {
    const visitor = await signIn(api.url, redis, email());
    const made = await visitor.call('POST', '/api/bot/key', { act: 'create', name: 'cached?' });
    expect(made.status).to.equal(200);
    expect(made.headers.get('cache-control')).to.equal('no-store');
  });

  it("meters a page's calls on its account's plan budget, not the keyless 60 a minute of its IP", async () => {
    const metered = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '5' });
    try {
      const address = email();
      const visitor = await signIn(metered.url, redis, address);
      await accountServices(redis).service.setPlan(address, 'pro', 30);
      const answers = [];
      for (let i = 0; i < 12; i += 1) answers.push(await visitor.call('GET', '/api/site/positions'));
      expect(answers.map((r) => r.status)).to.deep.equal(Array(12).fill(200));
      const last = answers[answers.length - 1];
      expect(last?.headers.get('x-ratelimit-scope')).to.equal('account');
      expect(last?.headers.get('x-ratelimit-limit')).to.equal('600');
      // a call without a session still spends the IP's keyless budget
      const anonymous = [];
      for (let i = 0; i < 7; i += 1) anonymous.push((await getJson(`${metered.url}/api/site/positions`)).status);
      expect(anonymous).to.include(429);
    } finally {
      await metered.close();
    }
  });
});
