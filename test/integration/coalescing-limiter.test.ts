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
