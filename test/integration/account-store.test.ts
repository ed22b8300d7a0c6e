// @three-masters: the key scripts and account indexes
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { AppError } from '../../shared/core/errors.js';
import { createAccountServices, type AccountServices } from '../../shared/paper/accounts/account-services.js';
import { UsageBatcher } from '../../shared/paper/accounts/usage-batcher.js';
import { DAY_MS } from '../../shared/paper/accounts/plan-terms.js';
import { StoredApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { refusal } from '../helpers/errors.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, snapshotRedis } from '../helpers/redis.js';

describe('accounts, keys, plans and books in Redis', () => {
  let redis: RedisClient;
  let now: number;
  let mod: AccountServices;
  let resolver: StoredApiKeyResolver;
  const clock = { now: () => now };

  beforeEach(async () => {
    redis = await freshRedis();
    now = Date.UTC(2026, 0, 10, 12);
    mod = createAccountServices({ redis, clock });
    resolver = new StoredApiKeyResolver({ accounts: mod.accounts, keys: mod.keys, clock });
  });
  afterEach(async () => {
    await closeRedis(redis);
  });

  it('creates the account on the first key; the e-mail is the identity whatever its case and spaces', async () => {
    const first = await mod.service.createKey({ email: 'Bob@Example.com' });
    const second = await mod.service.createKey({ email: '  bob@example.COM ', name: 'second' });
    expect(first.accountCreated).to.equal(true);
    expect(second.accountCreated).to.equal(false);
    expect(second.account.id).to.equal(first.account.id);
    expect(first.account.id).to.match(/^acc_/);
    expect(first.key.name).to.equal('key-1');
    expect(second.key.name).to.equal('second');
    expect(await redis.get(keys.accountByEmail('bob@example.com'))).to.equal(first.account.id);
  });

  it('agrees on one account when the same new e-mail is created concurrently', async () => {
    const created = await Promise.all(Array.from({ length: 3 }, () => mod.service.createKey({ email: 'race@example.com', plan: 'pro' })));
    expect(new Set(created.map((c) => c.account.id)).size).to.equal(1);
    expect(created.filter((c) => c.accountCreated)).to.have.length(1);
  });

  it('never lets concurrent creates pass max_keys (Free: 3 active keys); revoked keys do not count', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => mod.service.createKey({ email: 'cap@example.com', name: `k${i}` })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(3);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as AppError);
    expect(refused.map((e) => e.code)).to.deep.equal(Array(5).fill('max_keys'));
    expect(refused[0].status).to.equal(409);
    expect(refused[0].details).to.deep.equal({ max: 3 });
    const { keys: listed } = await mod.service.listKeys('cap@example.com');
    await mod.service.revokeKey('cap@example.com', listed[0].id);
    await mod.service.createKey({ email: 'cap@example.com' });
    expect((await refusal(mod.service.createKey({ email: 'cap@example.com' }))).code).to.equal('max_keys');
  });

  it('never lets concurrent creates pass max_books (Free: 1 named book); a known book takes more keys', async () => {
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((book) => mod.service.createKey({ email: 'books@example.com', book })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    const won = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ key: { book: string } }>).value.key.book;
    const refused = (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason as AppError;
    expect(refused.code).to.equal('max_books');
    expect(refused.status).to.equal(400);
    expect(refused.details).to.deep.equal({ max: 1 });
    const again = await mod.service.createKey({ email: 'books@example.com', book: won });
    expect(again.key).to.include({ book: won, bound: true });
    const { id } = again.account;
    const books = await mod.books.listBooks(id);
    expect(books.map((b) => b.name)).to.deep.equal(['main', won]);
    expect(books[0]).to.include({ main: true, created: now });
    const withKeys = await mod.books.listBooksWithKeys(id);
    expect(withKeys[0].keys).to.have.length(0);
    expect(withKeys[1].keys).to.have.length(2);
    expect(JSON.stringify(withKeys)).to.not.match(/pd_|digest/);
    expect(await mod.books.hasBook(id, 'main')).to.equal(true);
    expect(await mod.books.hasBook(id, 'nope')).to.equal(false);
  });

  it('refuses a bad book or e-mail before writing anything', async () => {
    const before = await snapshotRedis(redis);
    expect((await refusal(mod.service.createKey({ email: 'x@example.com', book: 'main' }))).code).to.equal('bad_book');
    expect((await refusal(mod.service.createKey({ email: 'x@example.com', book: 'a b' }))).code).to.equal('bad_book');
    expect((await refusal(mod.service.createKey({ email: 'not-an-email' }))).code).to.equal('invalid_param');
    expect((await refusal(mod.service.createKey({ email: 'x@example.com', name: '' }))).code).to.equal('invalid_param');
    expect(await snapshotRedis(redis)).to.deep.equal(before);
  });

  it('resolves a key to its context, a revoked one to revoked, anything else to null', async () => {
    const created = await mod.service.createKey({ email: 'ctx@example.com', book: 'scalper', name: 'bot' });
    const found = await resolver.resolve(created.apiKey);
    expect(found).to.not.equal(null);
    if (found === null || 'revoked' in found) throw new Error('expected a key');
    expect(found).to.include({ keyId: created.key.id, plan: 'free', requestsPerMinute: 120 });
    expect(found.context).to.deep.include({
      keyId: created.key.id,
      keyName: 'bot',
      accountId: created.account.id,
      email: 'ctx@example.com',
      book: 'scalper',
      bookBound: true,
    });
    expect(await resolver.resolve(`${created.apiKey.slice(0, -1)}${created.apiKey.endsWith('a') ? 'b' : 'a'}`)).to.equal(null);
    expect(await resolver.resolve('pd_nothing')).to.equal(null);
    await mod.service.revokeKey('ctx@example.com', created.key.id);
    expect(await resolver.resolve(created.apiKey)).to.deep.equal({ revoked: true });
  });

  it("reads the key's replay and its book's simulation profile with the metered call (key-gate.lua), the book's only once the key's book is known", async () => {
    const bound = await mod.service.createKey({ email: 'sim@example.com', book: 'scalper', name: 'bot' });
    const main = await mod.service.createKey({ email: 'sim@example.com', name: 'main' });
    const accountId = bound.account.id;
    await redis.hset(keys.bookSim(accountId, 'scalper'), 'profile', '{"latency_ms":250}');
    await redis.hset(keys.bookSim(accountId, 'main'), 'profile', '{"latency_ms":10}');
    const contextOf = async (apiKey: string) => {
      const found = await resolver.resolveMetered(apiKey, 60_000);
      if (found === null || 'revoked' in found) throw new Error('expected a key');
      return found.context;
    };
    // first sight of a bound key: the gate guessed main, so it reads no profile rather than main's
    const first = await contextOf(bound.apiKey);
    expect(first?.book).to.equal('scalper');
    expect(first?.simProfile).to.equal(undefined);
    expect((await contextOf(bound.apiKey))?.simProfile).to.equal('{"latency_ms":250}');
    expect(await contextOf(main.apiKey)).to.deep.include({ book: 'main', simProfile: '{"latency_ms":10}', replay: false });
    await redis.hset(keys.replayState(accountId, bound.key.id), 'id', 'rp1');
    expect((await contextOf(bound.apiKey))?.replay).to.equal(true);
    expect((await contextOf(main.apiKey))?.replay).to.equal(false);
  });

  it("resolves a key metered (key-gate.lua): the same context as resolve, the call counted in the key's own window, nothing counted for a revoked or unknown key", async () => {
    const created = await mod.service.createKey({ email: 'gate@example.com', book: 'scalper', name: 'bot' });
    const other = await mod.service.createKey({ email: 'gate@example.com', name: 'other' });
    expect(resolver.known(created.apiKey)).to.equal(undefined);
    const plain = await resolver.resolve(created.apiKey);
    const first = await resolver.resolveMetered(created.apiKey, 60_000);
    if (first === null || 'revoked' in first || plain === null || 'revoked' in plain) throw new Error('expected a key');
    const { window, ...rest } = first;
    // the gate also reads the account's fee venue (none set yet), the key's replay (none) and its book's profile (none saved)
    expect(rest).to.deep.equal({ ...plain, context: { ...plain.context, feeVenue: null, replay: false, simProfile: null } });
    expect(window?.calls).to.equal(1);
    expect(window?.resetAt).to.be.within(now + 59_000, now + 60_000);
    const rateKey = keys.accountKeyRate(created.account.id, created.key.id);
    expect(await redis.pttl(rateKey)).to.be.within(59_000, 60_000);
    const second = await resolver.resolveMetered(created.apiKey, 60_000);
    expect(second && 'window' in second ? second.window?.calls : null).to.equal(2);
    await redis.hset(keys.paperSettings(created.account.id), 'fee_venue', 'okx');
    expect(second && 'context' in second ? second.context?.feeVenue : undefined).to.equal(null);
    const withVenue = await resolver.resolveMetered(created.apiKey, 60_000);
    expect(withVenue && 'context' in withVenue ? withVenue.context?.feeVenue : undefined).to.equal('okx');
    // each key has its own window
    const others = await resolver.resolveMetered(other.apiKey, 60_000);
    expect(others && 'window' in others ? others.window?.calls : null).to.equal(1);
    // a window that ended starts again at 1
    await redis.pexpire(rateKey, 1);
    await waitFor(async () => (await redis.exists(rateKey)) === 0, 5_000, 'the window ended');
    const fresh = await resolver.resolveMetered(created.apiKey, 60_000);
    expect(fresh && 'window' in fresh ? fresh.window?.calls : null).to.equal(1);
    // a counter that lost its expiry gets a window again instead of never resetting
    await redis.persist(rateKey);
    const persisted = await resolver.resolveMetered(created.apiKey, 60_000);
    expect(persisted && 'window' in persisted ? persisted.window?.resetAt : null).to.equal(now + 60_000);
    expect(await redis.pttl(rateKey)).to.be.within(59_000, 60_000);

    // a key this process has found is known, with its account and book; a made-up one never is
    expect(resolver.known(created.apiKey)).to.deep.equal({ accountId: created.account.id, book: 'scalper' });
    expect(resolver.known(`${created.apiKey.slice(0, -1)}${created.apiKey.endsWith('a') ? 'b' : 'a'}`)).to.equal(undefined);
    expect(resolver.known('pd_nothing')).to.equal(undefined);
    expect(await resolver.resolveMetered('pd_nothing', 60_000)).to.equal(null);
    expect(await resolver.resolveMetered(`${created.apiKey.slice(0, -1)}${created.apiKey.endsWith('a') ? 'b' : 'a'}`, 60_000)).to.equal(
      null,
    );
    await mod.service.revokeKey('gate@example.com', created.key.id);
    const before = await snapshotRedis(redis);
    expect(await resolver.resolveMetered(created.apiKey, 60_000)).to.deep.equal({ revoked: true });
    expect(await snapshotRedis(redis)).to.deep.equal(before);
  });

  it('gives concurrent metered calls of one key distinct counts, 1 to n, with no call lost', async () => {
    const created = await mod.service.createKey({ email: 'gate-race@example.com' });
    const found = await Promise.all(Array.from({ length: 40 }, () => resolver.resolveMetered(created.apiKey, 60_000)));
    const calls = found.map((f) => (f && 'window' in f ? f.window?.calls : undefined));
    expect([...calls].sort((a, b) => Number(a) - Number(b))).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await redis.get(keys.accountKeyRate(created.account.id, created.key.id))).to.equal('40');
  });

  it('adds days bought early to the running plan, atomically under concurrent purchases; an ended plan resolves as Free', async () => {
    const created = await mod.service.createKey({ email: 'plan@example.com' });
    await Promise.all(Array.from({ length: 5 }, () => mod.service.setPlan('plan@example.com', 'pro', 10)));
    const account = await mod.accounts.get(created.account.id);
    expect(account?.plan).to.deep.equal({ plan: 'pro', until: now + 50 * DAY_MS, source: 'paid' });
    let found = await resolver.resolve(created.apiKey);
    expect(found && 'plan' in found ? found.plan : null).to.equal('pro');
    now += 51 * DAY_MS;
    found = await resolver.resolve(created.apiKey);
    expect(found && 'plan' in found ? [found.plan, found.requestsPerMinute] : null).to.deep.equal(['free', 120]);
    await mod.service.setPlan('plan@example.com', 'pro', 10, { source: 'trial' });
    expect((await mod.accounts.get(created.account.id))?.plan).to.deep.equal({ plan: 'pro', until: now + 10 * DAY_MS, source: 'trial' });
    await mod.service.setPlan('plan@example.com', 'free', 1);
    expect((await mod.accounts.get(created.account.id))?.plan).to.deep.equal({ plan: 'free', until: null });
    expect(await redis.hmget(keys.accountProfile(created.account.id), 'plan_until', 'plan_source')).to.deep.equal([null, null]);
    expect((await refusal(mod.service.setPlan('plan@example.com', 'pro', 0))).code).to.equal('invalid_param');
    expect((await refusal(mod.service.setPlan('nobody@example.com', 'pro', 3))).code).to.equal('not_found');
  });

  it('counts calls per key, per UTC day for 30 days, and keeps them after revoke', async () => {
    const a = await mod.service.createKey({ email: 'use@example.com', name: 'a' });
    const b = await mod.service.createKey({ email: 'use@example.com', name: 'b' });
    const id = a.account.id;
    const usage = new UsageBatcher(mod.keys, (error) => {
      throw error;
    });
    for (let i = 0; i < 3; i += 1) usage.recordCall(id, a.key.id, now + i);
    // a call of the next UTC day in the same batch lands on that day
    usage.recordCall(id, a.key.id, now + DAY_MS);
    await usage.flush();
    expect((await mod.keys.get(id, a.key.id))?.lastCallAt).to.equal(now + DAY_MS);
    now += DAY_MS;
    usage.recordCall(id, b.key.id, now);
    await usage.flush();
    const days = await mod.keys.dailyCalls(id, a.key.id, now);
    expect(days).to.have.length(30);
    expect(days.at(-1)).to.deep.equal({ day: '2026-01-11', calls: 1 });
    expect(days.at(-2)).to.deep.equal({ day: '2026-01-10', calls: 3 });
    expect(days.slice(0, -2).every((d) => d.calls === 0)).to.equal(true);
    const ttl = await redis.pttl(keys.accountKeyDay(id, a.key.id, '2026-01-10'));
    expect(ttl).to.be.within(30 * DAY_MS, 31 * DAY_MS);
    await mod.service.revokeKey('use@example.com', a.key.id);
    const listed = (await mod.service.listKeys('use@example.com')).keys.find((k) => k.id === a.key.id);
    expect(listed).to.include({ calls: 4, lastCallAt: now, revokedAt: now });
    expect((await mod.keys.dailyCalls(id, a.key.id, now)).at(-2)?.calls).to.equal(3);
  });

  it('adds concurrent usage flushes of one key (two pods flushing at once) without losing a call', async () => {
    const created = await mod.service.createKey({ email: 'use-race@example.com' });
    const { id: accountId } = created.account;
    const day = '2026-01-10';
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => mod.keys.recordCalls([{ accountId, keyId: created.key.id, day, calls: i + 1, last: now + i }])),
    );
    const total = (12 * 13) / 2;
    expect((await mod.keys.get(accountId, created.key.id))?.calls).to.equal(total);
    expect((await mod.keys.dailyCalls(accountId, created.key.id, now)).at(-1)).to.deep.equal({ day, calls: total });
  });

  it('renames and revokes by id within the account only', async () => {
    const a = await mod.service.createKey({ email: 'one@example.com' });
    const b = await mod.service.createKey({ email: 'two@example.com' });
    expect((await mod.service.renameKey('one@example.com', a.key.id, '  fresh name ')).name).to.equal('fresh name');
    expect((await refusal(mod.service.renameKey('one@example.com', b.key.id, 'x'))).code).to.equal('not_found');
    expect((await refusal(mod.service.revokeKey('one@example.com', b.key.id))).code).to.equal('not_found');
    expect((await mod.service.revokeKey('one@example.com', a.key.id)).alreadyRevoked).to.equal(false);
    expect((await mod.service.revokeKey('one@example.com', a.key.id)).alreadyRevoked).to.equal(true);
    expect(await redis.exists(keys.accountKey(a.account.id, b.key.id))).to.equal(0);
  });

  it('stores no key in any form but its SHA-256 digest', async () => {
    const created = await Promise.all([
      mod.service.createKey({ email: 'secret@example.com', book: 'b1' }),
      mod.service.createKey({ email: 'secret@example.com' }),
      mod.service.createKey({ email: 'other@example.com', plan: 'max' }),
    ]);
    const usage = new UsageBatcher(mod.keys, (error) => {
      throw error;
    });
    for (const c of created) usage.recordCall(c.account.id, c.key.id, now);
    await usage.flush();
    const dump = [...(await snapshotRedis(redis))].map(([key, value]) => `${key}=${value}`).join('\n');
    for (const { apiKey } of created) {
      expect(dump).to.not.contain(apiKey);
      expect(dump).to.not.contain(apiKey.slice(3));
      expect(dump).to.not.contain(apiKey.slice(3, 23));
    }
  });
});
