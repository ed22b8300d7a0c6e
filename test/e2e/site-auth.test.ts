// @three-masters: sessions and key-create over several keys, the account's key index
import { expect } from 'chai';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { Clock } from '../../shared/core/clock.js';
import { LINK_TTL_MS, secretDigest } from '../../shared/site/sign-in.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { readOutbox } from '../../shared/site/site-mail.js';
import { SiteStore } from '../../shared/site/site-store.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { HOSTILE_STRINGS } from '../helpers/hostile.js';
import { captureLog } from '../helpers/log-capture.js';
import { runCliProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, snapshotRedis, testRedisUrl } from '../helpers/redis.js';
import { linkToken, outboxMail, sessionCookie, signIn, sitePost } from '../helpers/site.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { freePort } from '../../shared/redis/embedded.js';
import { botCall, TestPrices } from '../helpers/trading.js';

interface Envelope<T = Record<string, unknown>> {
  ok: boolean;
  data: T;
  error: { code: string; message: string; param?: string; max?: number };
}
interface KeyList {
  ok: true;
  keys: { k: string; name: string; book: string; calls: number; last: number | null; revoked: boolean }[];
  plan: { plan: string; label: string };
  plans: unknown[];
  created?: { k: string; key: string };
  error?: { code: string; max?: number };
}

/** The wall clock plus an offset the test moves: the API's link expiry reads it. */
class TestClock implements Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
}

describe('site: e-mail sign-in, sessions and key management (/api/auth, /api/bot/key)', () => {
  let redis: RedisClient;
  let api: TestApi;
  const clock = new TestClock();
  const log = captureLog();
  let n = 0;
  const email = (): string => `site${++n}-${Date.now()}@example.org`;

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(
      redis,
      { PUBLIC_RATE_LIMIT: '1000000', SIGNIN_EMAIL_RATE_LIMIT: '3', SIGNIN_IP_RATE_LIMIT: '1000' },
      { clock, logger: log.logger },
    );
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
  });
  beforeEach(() => {
    clock.offsetMs = 0;
  });

  it('signs in through the outbox link: account made, session cookie __Host-, HttpOnly, SameSite=Lax, Secure by default', async () => {
    const address = email();
    const start = await sitePost<Envelope>(api.url, '/api/auth/start', { email: address });
    expect(start.status).to.equal(200);
    expect(start.body.data).to.deep.equal({ sent: true, expires_in_s: 900 });
    const mail = await outboxMail(redis, address);
    expect(mail.link).to.match(new RegExp(`^${api.url}/signin#token=[A-Za-z0-9_-]{43}$`));
    // stored hashed: the token itself is in no key and no value
    const token = linkToken(mail.link);
    const stored = await redis.hgetall(`site:link:${secretDigest(token)}`);
    expect(stored.email).to.equal(address);
    // every key and value but the mail itself (the outbox holds the link, as a sent mail would)
    const dump = [...(await snapshotRedis(redis))].filter(([key]) => key !== keys.siteOutbox()).map(([key, value]) => `${key}=${value}`);
    expect(dump.join('\n')).to.contain(address);
    expect(dump.join('\n')).not.to.contain(token);
    const finish = await sitePost<Envelope>(api.url, '/api/auth/finish', { token });
    expect(finish.status).to.equal(200);
    expect(finish.body.data).to.include({ email: address, created: true });
    const setCookie = finish.headers.get('set-cookie') ?? '';
    expect(setCookie).to.match(/^__Host-pd_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/);
    const cookie = sessionCookie(finish);
    const me = await getJson<Envelope>(`${api.url}/api/auth/me`, { headers: { cookie: `__Host-pd_session=${cookie}` } });
    expect(me.status).to.equal(200);
    expect(me.body.data).to.include({ email: address, signed_in: true });
    expect(me.body.data.books).to.deep.equal(['main']);
    // the session record's expiry is 30 days, pushed forward by the check
    const ttl = await redis.ttl(`site:session:${secretDigest(cookie)}`);
    expect(ttl).to.be.within(30 * 86400 - 5, 30 * 86400);
  });

  it('answers start the same for a new and a known address (never says whether an account exists)', async () => {
    const known = email();
    await signIn(api.url, redis, known);
    const forKnown = await sitePost<Envelope>(api.url, '/api/auth/start', { email: known });
    const forNew = await sitePost<Envelope>(api.url, '/api/auth/start', { email: email() });
    expect([forKnown.status, forNew.status]).to.deep.equal([200, 200]);
    expect(forKnown.body.data).to.deep.equal(forNew.body.data);
  });

  it('refuses a used link and an expired one (400 link_invalid)', async () => {
    const address = email();
    const asked = Date.now();
    await sitePost(api.url, '/api/auth/start', { email: address });
    const token = linkToken((await outboxMail(redis, address, asked)).link);
    // two openings at once: exactly one wins
    const [a, b] = await Promise.all([
      sitePost<Envelope>(api.url, '/api/auth/finish', { token }),
      sitePost<Envelope>(api.url, '/api/auth/finish', { token }),
    ]);
    expect([a.status, b.status].sort()).to.deep.equal([200, 400]);
    const again = await sitePost<Envelope>(api.url, '/api/auth/finish', { token });
    expect(again.status).to.equal(400);
    expect(again.body.error.code).to.equal('link_invalid');

    const late = email();
    const askedLate = Date.now();
    await sitePost(api.url, '/api/auth/start', { email: late });
    const lateToken = linkToken((await outboxMail(redis, late, askedLate)).link);
    clock.offsetMs = LINK_TTL_MS + 1;
    const expired = await sitePost<Envelope>(api.url, '/api/auth/finish', { token: lateToken });
    expect(expired.status).to.equal(400);
    expect(expired.body.error.code).to.equal('link_invalid');
    // nothing was created for the expired address
    expect(await redis.get(keys.accountByEmail(late))).to.equal(null);
    expect(await redis.get(keys.accountByEmail(address))).to.be.a('string');
  });

  it('refuses cross-site calls (403 cross_site): another Origin on start, finish, key management and logout; no Origin on sign-in', async () => {
    const visitor = await signIn(api.url, redis, email());
    const evil = { origin: 'https://evil.example' };
    // sign-in carries no session: without the site's Origin it is refused (login CSRF, the link's address)
    for (const path of ['/api/auth/start', '/api/auth/finish']) {
      const noOrigin = await getJson<Envelope>(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'x@example.org', token: 'x' }),
      });
      expect([noOrigin.status, noOrigin.body.error.code], path).to.deep.equal([403, 'cross_site']);
    }
    for (const path of ['/api/bot/key', '/api/auth/logout', '/api/site/open', '/api/auth/start', '/api/auth/finish']) {
      const forged = await visitor.call<Envelope>('POST', path, { act: 'create', email: 'x@example.org', token: 'x' }, evil);
      expect(forged.status, path).to.equal(403);
      expect(forged.body.error.code, path).to.equal('cross_site');
    }
    const list = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'list' });
    expect(list.body.keys).to.have.length(0);
  });

  it('serves key management to a script with the session cookie and no Origin (SameSite=Lax keeps the cookie off cross-site POSTs)', async () => {
    const visitor = await signIn(api.url, redis, email());
    const script = await getJson<KeyList>(`${api.url}/api/bot/key`, {
      method: 'POST',
      headers: { cookie: visitor.cookieHeader, 'content-type': 'application/json' },
      body: JSON.stringify({ act: 'create', name: 'from-a-script' }),
    });
    expect(script.status).to.equal(200);
    expect(script.body.keys.map((k) => k.name)).to.deep.equal(['from-a-script']);
    // the Origin "null" (a sandboxed or opaque page) is another site's, not a script's
    const opaque = await visitor.call<Envelope>('POST', '/api/bot/key', { act: 'list' }, { origin: 'null' });
    expect([opaque.status, opaque.body.error.code]).to.deep.equal([403, 'cross_site']);
  });

  it('manages keys: create shows the key once, list never, rename, revoke; a revoked key answers 401 revoked_key', async () => {
    const visitor = await signIn(api.url, redis, email());
    const created = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'create', name: 'my-bot' });
    expect(created.status).to.equal(200);
    const newKey = created.body.created?.key ?? '';
    expect(newKey).to.match(/^pd_[0-9A-Za-z]{40}$/);
    expect(created.body.keys).to.have.length(1);
    const row = created.body.keys[0];
    expect(row).to.include({ name: 'my-bot', book: 'main', calls: 0, last: null, revoked: false });
    expect(row?.k).to.equal(created.body.created?.k);
    expect(created.body.plan).to.include({ plan: 'free', label: 'Free' });
    // the key works on the API, and its call is counted
    expect((await botCall(api.url, newKey, 'GET', '/usage')).status).to.equal(200);
    await api.flush();
    const listed = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'list' });
    expect(JSON.stringify(listed.body)).not.to.contain(newKey);
    expect(listed.body.keys[0]?.calls).to.equal(1);
    const renamed = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'rename', key: row?.k, name: 'renamed' });
    expect(renamed.body.keys[0]?.name).to.equal('renamed');
    const revoked = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'revoke', key: row?.k });
    expect(revoked.body.keys[0]?.revoked).to.equal(true);
    const refused = await botCall<{ error: string }>(api.url, newKey, 'GET', '/usage');
    expect(refused.status).to.equal(401);
    expect(refused.body.error).to.equal('revoked_key');
  });

  it('answers 409 max_keys, 400 max_books with max, 400 bad_book', async () => {
    const visitor = await signIn(api.url, redis, email());
    const bad = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'create', book: 'no spaces allowed' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error?.code).to.equal('bad_book');
    // Free: 1 book besides main, 3 active keys
    expect((await visitor.call('POST', '/api/bot/key', { act: 'create', book: 'alpha' })).status).to.equal(200);
    const books = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'create', book: 'beta' });
    expect(books.status).to.equal(400);
    expect(books.body.error).to.include({ code: 'max_books', max: 1 });
    expect((await visitor.call('POST', '/api/bot/key', { act: 'create' })).status).to.equal(200);
    expect((await visitor.call('POST', '/api/bot/key', { act: 'create' })).status).to.equal(200);
    const fourth = await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'create' });
    expect(fourth.status).to.equal(409);
    expect(fourth.body.error).to.include({ code: 'max_keys', max: 3 });
  });

  it("never shows account A's keys to B's session, nor lets B rename or revoke them", async () => {
    const a = await signIn(api.url, redis, email());
    const b = await signIn(api.url, redis, email());
    const made = await a.call<KeyList>('POST', '/api/bot/key', { act: 'create', name: 'a-key' });
    const k = made.body.created?.k;
    const bList = await b.call<KeyList>('POST', '/api/bot/key', { act: 'list' });
    expect(bList.body.keys).to.deep.equal([]);
    for (const act of ['rename', 'revoke']) {
      const tried = await b.call<KeyList>('POST', '/api/bot/key', { act, key: k, name: 'stolen' });
      expect(tried.status, act).to.equal(404);
    }
    const aList = await a.call<KeyList>('POST', '/api/bot/key', { act: 'list' });
    expect(aList.body.keys[0]).to.include({ name: 'a-key', revoked: false });
  });

  it('answers 401 login_required without a session, with a made-up cookie, and after logout (one or all)', async () => {
    const none = await sitePost<KeyList>(api.url, '/api/bot/key', { act: 'list' });
    expect(none.status).to.equal(401);
    expect(none.body.error?.code).to.equal('login_required');
    const madeUp = await sitePost<KeyList>(api.url, '/api/bot/key', { act: 'list' }, { cookie: `__Host-pd_session=${'A'.repeat(43)}` });
    expect(madeUp.status).to.equal(401);
    const address = email();
    const phone = await signIn(api.url, redis, address);
    const laptop = await signIn(api.url, redis, address);
    const tablet = await signIn(api.url, redis, address);
    const out = await phone.call<Envelope<{ ended: number }>>('POST', '/api/auth/logout');
    expect(out.body.data.ended).to.equal(1);
    expect(out.headers.get('set-cookie')).to.match(/^__Host-pd_session=; .*Max-Age=0/);
    const signedIn = async (visitor: typeof phone): Promise<boolean> =>
      (await visitor.call<Envelope<{ signed_in: boolean }>>('GET', '/api/auth/me')).body.data.signed_in;
    expect(await signedIn(phone)).to.equal(false);
    expect(await signedIn(laptop)).to.equal(true);
    expect((await phone.call('POST', '/api/bot/key', { act: 'list' })).status).to.equal(401);
    const all = await laptop.call<Envelope<{ ended: number }>>('POST', '/api/auth/logout?all=1');
    expect(all.body.data.ended).to.equal(2);
    expect(await signedIn(tablet)).to.equal(false);
    expect(await signedIn(laptop)).to.equal(false);
    expect((await tablet.call('POST', '/api/bot/key', { act: 'list' })).status).to.equal(401);
  });

  it('rate limits sign-in links per address (429 rate_limited with Retry-After), whatever the address is spelled like', async () => {
    const address = email();
    const spellings = [address, address.toUpperCase(), ` ${address} `];
    for (const spelled of spellings) expect((await sitePost(api.url, '/api/auth/start', { email: spelled })).status).to.equal(200);
    const fourth = await sitePost<Envelope>(api.url, '/api/auth/start', { email: address });
    expect(fourth.status).to.equal(429);
    expect(fourth.body.error.code).to.equal('rate_limited');
    expect(Number(fourth.headers.get('retry-after'))).to.be.within(1, 60);
    // another address is not held back by this one's budget
    expect((await sitePost(api.url, '/api/auth/start', { email: email() })).status).to.equal(200);
  });

  it('rate limits sign-in links per client IP across addresses', async () => {
    const strict = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', SIGNIN_IP_RATE_LIMIT: '2' });
    try {
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push((await sitePost<Envelope>(strict.url, '/api/auth/start', { email: email() })).status);
      expect(answers).to.deep.equal([200, 200, 429]);
    } finally {
      await strict.close();
    }
  });

  it('trades from a session through the bot routes: the same named errors, one position for a repeated client_order_id', async () => {
    await new TestPrices(redis).set({ BTCUSDT: 65000 });
    const visitor = await signIn(api.url, redis, email());
    const order = { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, client_order_id: `dbl-${Date.now()}` };
    // a double submit: both at once, one position
    const [first, second] = await Promise.all([
      visitor.call<Envelope<{ position: { id: string }; idempotent?: boolean }>>('POST', '/api/site/open', order),
      visitor.call<Envelope<{ position: { id: string }; idempotent?: boolean }>>('POST', '/api/site/open', order),
    ]);
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    expect(first.body.data.position.id).to.equal(second.body.data.position.id);
    const listed = await visitor.call<Envelope<{ positions: unknown[] }>>('GET', '/api/site/positions');
    expect(listed.body.data.positions).to.have.length(1);
    // the API's named refusal, with the field it names
    const tooHigh = await visitor.call<Envelope>('POST', '/api/site/open', { ...order, client_order_id: undefined, leverage: 5000 });
    expect(tooHigh.status).to.equal(400);
    expect(tooHigh.body.error.code).to.equal('leverage_max');
    // a book the account does not have
    const noBook = await visitor.call<Envelope>('GET', '/api/site/positions', undefined, { 'x-pd-book': 'ghost' });
    expect([noBook.status, noBook.body.error.code]).to.deep.equal([400, 'bad_book']);
    // without a session: 401 login_required, as /api/bot/key
    const anonymous = await getJson<Envelope>(`${api.url}/api/site/positions`);
    expect([anonymous.status, anonymous.body.error.code]).to.deep.equal([401, 'login_required']);
  });

  it("opens the stream on a session cookie from the site's own page, and refuses it cross-site or signed out", async () => {
    const visitor = await signIn(api.url, redis, email());
    const wsUrl = `${api.url.replace('http', 'ws')}/api/bot/v2/stream`;
    const upgrade = (headers: Record<string, string>): Promise<{ status: number; body: string } | { welcome: unknown }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(wsUrl, { headers });
        ws.once('message', (data) => {
          resolve({ welcome: JSON.parse(data.toString()) });
          ws.close();
        });
        ws.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        ws.once('error', (error) => reject(error));
      });
    const cookie = visitor.cookieHeader;
    const own = await upgrade({ cookie, origin: api.url });
    expect(own).to.have.nested.property('welcome.type', 'welcome');
    expect(own).to.have.nested.property('welcome.data.account', 'main');
    const forged = await upgrade({ cookie, origin: 'https://evil.example' });
    expect(forged).to.include({ status: 403 });
    expect((forged as { body: string }).body).to.contain('cross_site');
    const stale = await upgrade({ cookie: `__Host-pd_session=${'B'.repeat(43)}`, origin: api.url });
    expect(stale).to.include({ status: 401 });
    expect((stale as { body: string }).body).to.contain('login_required');

    // signing out cuts the session's open stream (4401 login_required), and only that session's
    const other = await signIn(api.url, redis, visitor.email);
    const open = (who: typeof visitor): Promise<{ ws: WebSocket; closed: Promise<[number, string]> }> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(wsUrl, { headers: { cookie: who.cookieHeader, origin: api.url } });
        const closed = new Promise<[number, string]>((done) => ws.once('close', (code, reason) => done([code, reason.toString()])));
        ws.once('message', () => resolve({ ws, closed }));
        ws.once('error', reject);
      });
    const mine = await open(visitor);
    const theirs = await open(other);
    let theirsClosed = false;
    void theirs.closed.then(() => (theirsClosed = true));
    await visitor.call('POST', '/api/auth/logout');
    expect(await mine.closed).to.deep.equal([4401, 'login_required']);
    // a round trip on the other socket after the notice: had it been cut too, its close would come first
    const pong = new Promise((resolve) =>
      theirs.ws.on('message', (data) => {
        if ((JSON.parse(data.toString()) as { type: string }).type === 'pong') resolve(true);
      }),
    );
    theirs.ws.send(JSON.stringify({ op: 'ping' }));
    await Promise.race([pong, theirs.closed]);
    expect(theirsClosed).to.equal(false);
    theirs.ws.close();
    await theirs.closed;
  });

  it('prints the outbox links as full URLs with npm run cli -- mail outbox [--email E]', async () => {
    const first = email();
    const second = email();
    await sitePost(api.url, '/api/auth/start', { email: first });
    await sitePost(api.url, '/api/auth/start', { email: second });
    const one = await runCliProcess(['mail', 'outbox', '--email', first.toUpperCase()], { REDIS_URL: testRedisUrl() });
    expect(one.code, one.stderr).to.equal(0);
    const lines = one.stdout.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+  ${first.replace(/[.]/g, '\\.')}  ${api.url}/signin#token=[A-Za-z0-9_-]{43}$`),
    );
    const all = await runCliProcess(['mail', 'outbox', '--json'], { REDIS_URL: testRedisUrl() });
    const mails = (JSON.parse(all.stdout) as { mails: { to: string; link: string }[] }).mails;
    // newest first
    expect(mails.slice(0, 2).map((mail) => mail.to)).to.deep.equal([second, first]);
  });

  it('logs the link only as the development outbox line, and never the session cookie', async () => {
    const visitor = await signIn(api.url, redis, email());
    await visitor.call('GET', '/api/auth/me');
    const text = log.text();
    expect(text).not.to.contain(visitor.cookie);
    const outboxLines = log.lines().filter((line) => line.msg === 'development outbox: sign-in link (no SMTP_URL)');
    expect(outboxLines.length).to.be.greaterThan(0);
    // no other line carries a link token
    const others = log.lines().filter((line) => line.msg !== 'development outbox: sign-in link (no SMTP_URL)');
    expect(JSON.stringify(others)).not.to.match(/#token=/);
  });

  it('answers hostile bodies with named 4xx, never a 500', async () => {
    const visitor = await signIn(api.url, redis, email());
    const bodies: unknown[] = [
      '{"email":',
      'null',
      '[]',
      { email: 42 },
      { email: 'x'.repeat(300) },
      { email: 'not-an-address' },
      { email: 'a@b.c\r\nBcc: victim@example.org' },
      ...HOSTILE_STRINGS.map((s) => ({ email: s })),
    ];
    for (const body of bodies) {
      const r = await sitePost<Envelope>(api.url, '/api/auth/start', body);
      expect(r.status, JSON.stringify(body)).to.be.within(400, 499);
      expect(r.body.error.code).to.be.a('string');
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.constantFrom('finish', 'key'), async (text, where) => {
        const r =
          where === 'finish'
            ? await sitePost<Envelope>(api.url, '/api/auth/finish', { token: text })
            : await visitor.call<KeyList>('POST', '/api/bot/key', { act: 'rename', key: text, name: text });
        expect(r.status).to.be.within(400, 499);
      }),
      { numRuns: 40 },
    );
    const keyBodies: unknown[] = [{ act: 'drop' }, { act: 'create', book: 'main' }, { act: 'create', name: '\u0000' }, { act: 'revoke' }];
    for (const body of keyBodies) {
      const r = await visitor.call<KeyList>('POST', '/api/bot/key', body);
      expect(r.status, JSON.stringify(body)).to.be.within(400, 499);
    }
  });

  it('mails the link through SMTP_URL when it is set (and keeps nothing in the development outbox)', async () => {
    const smtp = await startSmtpSink();
    const mailing = await startTestApi(redis, {
      PUBLIC_RATE_LIMIT: '1000000',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Perpdesk <signin@perpdesk.test>',
    });
    try {
      const address = email();
      const start = await sitePost<Envelope>(mailing.url, '/api/auth/start', { email: address });
      expect(start.status).to.equal(200);
      const mail = await waitFor(
        () => smtp.mails.find((m) => m.to.some((rcpt) => rcpt.includes(address))),
        5_000,
        'the mail at the SMTP sink',
      );
      expect(mail.from).to.contain('signin@perpdesk.test');
      // the body may be quoted-printable: soft line breaks undone before the link is read
      const body = mail.data.replace(/=\r\n/g, '').replace(/=3D/g, '=');
      const token = /\/signin#token=([A-Za-z0-9_-]{43})/.exec(body)?.[1] ?? '';
      expect(token).to.have.length(43);
      const finish = await sitePost<Envelope>(mailing.url, '/api/auth/finish', { token });
      expect(finish.status).to.equal(200);
      expect(await readOutbox(new SiteStore(redis), address)).to.deep.equal([]);
    } finally {
      await mailing.close();
      await smtp.close();
    }
  });

  it('answers 503 mail_unavailable, never a 500, when the SMTP server cannot be reached', async () => {
    const closed = await freePort();
    const mailing = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', SMTP_URL: `smtp://127.0.0.1:${closed}` });
    try {
      const start = await sitePost<Envelope>(mailing.url, '/api/auth/start', { email: email() });
      expect(start.status).to.equal(503);
      expect(JSON.stringify(start.body)).to.contain('mail_unavailable');
    } finally {
      await mailing.close();
    }
  });
});
