/**
 * Sign-in as an attacker would try it (issue 34, part 2): a production server without a mail server, budgets a stranger
 * spends for a victim, a link sent to a victim (login CSRF), and the links and session a sign-in leaves behind.
 */
import { expect } from 'chai';
import { request } from 'node:http';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { ConfigError, configWith } from '../../shared/config.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { captureLog } from '../helpers/log-capture.js';
import { freshRedis, keysMatching } from '../helpers/redis.js';
import { finishSignIn, linkToken, outboxMail, sessionCookiePair, signIn, sitePost } from '../helpers/site.js';

interface Envelope<T = Record<string, unknown>> {
  ok: boolean;
  data: T;
  error: { code: string; message: string };
}

/** A sign-in start sent from a loopback address of the test's choosing (127.0.0.x): another client, as the server sees it. */
function startFrom(client: string, base: string, email: string): Promise<{ status: number; retryAfter: number }> {
  const url = new URL('/api/auth/start', base);
  const body = JSON.stringify({ email });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', localAddress: client, headers: { origin: base, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('site: sign-in guarded against strangers (mail, budgets, login CSRF, leftovers)', () => {
  let redis: RedisClient;
  let api: TestApi;
  let n = 0;
  const email = (): string => `guard${++n}-${Date.now()}@example.org`;

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', SIGNIN_IP_RATE_LIMIT: '1000' });
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
  });

  it('answers 503 mail_unavailable in production without SMTP_URL, and writes the link nowhere (log, outbox, Redis)', async () => {
    const log = captureLog();
    const production = await startTestApi(
      redis,
      { NODE_ENV: 'production', MAIL_OUTBOX: 'false', WEBHOOK_SECRETS_KEY: 'ab'.repeat(32) },
      { logger: log.logger },
    );
    try {
      const linksBefore = await keysMatching(redis, 'site:link:*');
      const outboxBefore = await redis.llen('site:outbox');
      const start = await sitePost<Envelope>(production.url, '/api/auth/start', { email: email() });
      expect(start.status).to.equal(503);
      expect(start.body.error.code).to.equal('mail_unavailable');
      expect(await keysMatching(redis, 'site:link:*')).to.deep.equal(linksBefore);
      expect(await redis.llen('site:outbox')).to.equal(outboxBefore);
      expect(log.text()).not.to.match(/#token=/);
    } finally {
      await production.close();
    }
    // the outbox is the development's only when asked for, and production refuses to be asked
    expect(() => configWith({ NODE_ENV: 'production', MAIL_OUTBOX: 'true', WEBHOOK_SECRETS_KEY: 'ab'.repeat(32) })).to.throw(
      ConfigError,
      /MAIL_OUTBOX/,
    );
    expect(configWith({}).site.devOutbox).to.equal(false);
  });

  it('shares one budget between the spellings of a mailbox: case, +tags and the dots Gmail ignores', async () => {
    const strict = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', SIGNIN_EMAIL_RATE_LIMIT: '3' });
    try {
      const local = `victim${Date.now()}`;
      const spellings = [
        `${local}+1@gmail.com`,
        `${local.toUpperCase()}+2@googlemail.com`,
        `${local.slice(0, 3)}.${local.slice(3)}@gmail.com`,
      ];
      for (const spelled of spellings) expect((await sitePost(strict.url, '/api/auth/start', { email: spelled })).status).to.equal(200);
      const fourth = await sitePost<Envelope>(strict.url, '/api/auth/start', { email: `${local}+4@gmail.com` });
      expect(fourth.status).to.equal(429);
      expect(fourth.body.error.code).to.equal('rate_limited');
      // outside Gmail the dots are the mailbox's own: another mailbox, another budget
      expect((await sitePost(strict.url, '/api/auth/start', { email: `${local}+1@example.org` })).status).to.equal(200);
      expect((await sitePost(strict.url, '/api/auth/start', { email: `v.${local}@example.org` })).status).to.equal(200);
    } finally {
      await strict.close();
    }
  });

  it("never lets a stranger's requests spend the victim's minute budget; a daily cap per mailbox bounds everyone", async () => {
    const strict = await startTestApi(redis, {
      PUBLIC_RATE_LIMIT: '1000000',
      SIGNIN_EMAIL_RATE_LIMIT: '2',
      SIGNIN_EMAIL_DAILY_LIMIT: '4',
    });
    const base = strict.url;
    try {
      const victim = email();
      // the stranger spends its own (mailbox, client) budget for the victim's address
      const stranger = [];
      for (let i = 0; i < 3; i += 1) stranger.push((await startFrom('127.0.0.2', base, victim)).status);
      expect(stranger).to.deep.equal([200, 200, 429]);
      // the victim, from their own address, still gets a link
      expect((await startFrom('127.0.0.3', base, victim)).status).to.equal(200);
      // four links for the mailbox today: the fifth is refused from anywhere, until tomorrow
      expect((await startFrom('127.0.0.4', base, victim)).status).to.equal(200);
      const overDay = await startFrom('127.0.0.5', base, victim);
      expect(overDay.status).to.equal(429);
      expect(overDay.retryAfter).to.be.greaterThan(3600);
    } finally {
      await strict.close();
    }
  });

  it('names the address a link signs in as without using it; the link still signs in once after', async () => {
    const address = email();
    const asked = Date.now();
    await sitePost(api.url, '/api/auth/start', { email: address });
    const token = linkToken((await outboxMail(redis, address, asked)).link);
    const peek = await sitePost<Envelope<{ email: string }>>(api.url, '/api/auth/link', { token });
    expect(peek.status).to.equal(200);
    expect(peek.body.data.email).to.equal(address);
    expect(peek.headers.get('cache-control')).to.equal('no-store');
    // a cross-site page cannot read it
    const forged = await sitePost<Envelope>(api.url, '/api/auth/link', { token }, { origin: 'https://evil.example' });
    expect(forged.status).to.equal(403);
    expect((await sitePost(api.url, '/api/auth/finish', { token })).status).to.equal(200);
    const used = await sitePost<Envelope>(api.url, '/api/auth/link', { token });
    expect([used.status, used.body.error.code]).to.deep.equal([400, 'link_invalid']);
  });

  it("ends the address's other outstanding links when one of them signs in", async () => {
    const address = email();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const asked = Date.now();
      await sitePost(api.url, '/api/auth/start', { email: address });
      tokens.push(linkToken((await outboxMail(redis, address, asked)).link));
    }
    expect(new Set(tokens).size).to.equal(3);
    expect((await sitePost(api.url, '/api/auth/finish', { token: tokens[1] })).status).to.equal(200);
    for (const token of [tokens[0], tokens[2]]) {
      const late = await sitePost<Envelope>(api.url, '/api/auth/finish', { token });
      expect([late.status, late.body.error.code]).to.deep.equal([400, 'link_invalid']);
    }
  });

  it('ends the session the browser already had when it signs in again, as anyone', async () => {
    const before = await signIn(api.url, redis, email());
    const other = email();
    const finished = await finishSignIn(api.url, redis, other, { cookie: before.cookieHeader });
    expect(finished.status).to.equal(200);
    const after = sessionCookiePair(finished);
    expect((await before.call<Envelope<{ signed_in: boolean }>>('GET', '/api/auth/me')).body.data.signed_in).to.equal(false);
    const meAfter = await getJson<Envelope>(`${api.url}/api/auth/me`, { headers: { cookie: after.header } });
    expect(meAfter.body.data).to.include({ signed_in: true, email: other });
  });
});
