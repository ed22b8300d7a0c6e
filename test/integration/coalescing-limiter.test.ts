import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { CoalescingLimiter } from '../../shared/rate-limit/coalescing-limiter.js';
import { getJson, startTestApi } from '../helpers/app.js';
import { useFreshRedis } from '../helpers/redis.js';

describe('the coalescing limiter', () => {
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh), 'each');

  it('gives concurrent callers distinct exact ordinals from one shared counter', async () => {
    const a = new CoalescingLimiter(redis, [20]);
    const b = new CoalescingLimiter(redis, [20]);
    const decisions = await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 3 === 0 ? a : b).consume('ip:x', 20)));
    const remaining = decisions
      .filter((d) => d.allowed)
      .map((d) => d.remaining)
      .sort((x, y) => x - y);
    expect(remaining).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
    expect(decisions.filter((d) => !d.allowed)).to.have.length(5);
    expect(await redis.get('rl:20:ip:x')).to.equal('25');
  });

  it('stops asking Redis once a window is spent, until it resets', async () => {
    let clock = 1_000_000;
    const limiter = new CoalescingLimiter(redis, [3], () => clock);
    for (let i = 0; i < 3; i += 1) expect((await limiter.consume('ip:y', 3)).allowed).to.equal(true);
    expect((await limiter.consume('ip:y', 3)).allowed).to.equal(false);
    const counted = await redis.get('rl:3:ip:y');
    expect((await limiter.consume('ip:y', 3)).allowed).to.equal(false);
    expect(await redis.get('rl:3:ip:y')).to.equal(counted);
    clock += 61_000;
    await redis.del('rl:3:ip:y'); // the window's key has expired by then
    expect((await limiter.consume('ip:y', 3)).allowed).to.equal(true);
  });

  it("answers one window's end to every call of it, however late each reply is read", async () => {
    let clock = 5_000_000;
    const limiter = new CoalescingLimiter(redis, [10], () => clock);
    const first = await limiter.consume('ip:z', 10);
    // a reply read 0.4 s late (a busy event loop): its ms left plus the clock would move the end by 0.4 s
    clock += 400;
    const later = await limiter.consume('ip:z', 10);
    expect(later.resetAt).to.equal(first.resetAt);
    expect(first.resetAt - 5_000_000).to.be.within(59_000, 60_000);
    // a window that ended is forgotten: the next call's window ends a minute on
    clock = first.resetAt + 1;
    await redis.del('rl:10:ip:z'); // the window's key has expired by then
    expect((await limiter.consume('ip:z', 10)).resetAt - clock).to.be.within(59_000, 60_000);
  });

  it('forgets the windows of clients that are gone: what it remembers stays bounded', async () => {
    let clock = 7_000_000;
    const limiter = new CoalescingLimiter(redis, [5], () => clock);
    const clients = Array.from({ length: 10_000 }, (_, i) => `ip:gone-${i}`);
    await Promise.all(clients.map((client) => limiter.consume(client, 5)));
    expect(limiter.knownWindows).to.equal(10_000);
    // their minute is over and they never come back; new clients arrive
    clock += 61_000;
    await limiter.consume('ip:new-1', 5);
    await limiter.consume('ip:new-2', 5);
    expect(limiter.knownWindows).to.equal(2);
  });

  it('meters a valid key against its plan budget, with scope key (key lookup test double)', async () => {
    const keys: ApiKeyResolver = {
      resolve: async (apiKey) =>
        apiKey === 'pd_live' ? { keyId: 'k1', plan: 'pro', requestsPerMinute: 600 } : apiKey === 'pd_revoked' ? { revoked: true } : null,
    };
    const api = await startTestApi(redis, {}, { apiKeys: keys });
    try {
      const keyed = await fetch(`${api.url}/api/v1/ping`, { headers: { 'x-api-key': 'pd_live' } });
      expect(keyed.status).to.equal(200);
      expect(keyed.headers.get('x-ratelimit-scope')).to.equal('key');
      expect(keyed.headers.get('x-ratelimit-limit')).to.equal('600');
      expect(keyed.headers.get('x-ratelimit-remaining')).to.equal('599');
      const revoked = await getJson<{ error: { code: string } }>(`${api.url}/api/v1/ping`, { headers: { 'x-api-key': 'pd_revoked' } });
      expect(revoked.status).to.equal(401);
      expect(revoked.body.error.code).to.equal('revoked_key');
      const keyless = await fetch(`${api.url}/api/v1/ping`);
      expect(keyless.headers.get('x-ratelimit-scope')).to.equal('ip');
      expect(keyless.headers.get('x-ratelimit-remaining')).to.equal('59');
    } finally {
      await api.close();
    }
  });
});
