import { expect } from 'chai';
import { ConfigError, configWith } from '../../shared/config.js';
import { isRedisUnreachable } from '../../shared/core/redis-unreachable.js';
import { clusterSeeds, redisHosts } from '../../shared/redis/connection.js';

describe('config: REDIS_URL and REDIS_CLUSTER', () => {
  it('keeps one server by default: REDIS_URL as given, or unset for the private redis-server', () => {
    expect(configWith().redisUrl).to.equal(undefined);
    const url = configWith({ REDIS_URL: 'redis://10.0.0.5:6379' }).redisUrl ?? '';
    expect(url).to.equal('redis://10.0.0.5:6379');
    expect(clusterSeeds(url)).to.equal(undefined);
  });

  it('marks a cluster address with REDIS_CLUSTER=true, for one seed or several', () => {
    const one = configWith({ REDIS_URL: 'redis://a.redis:6379', REDIS_CLUSTER: 'true' }).redisUrl ?? '';
    expect(one).to.equal('cluster:redis://a.redis:6379');
    const several = configWith({ REDIS_URL: 'redis://a:7000,redis://b:7001,rediss://c:7002', REDIS_CLUSTER: 'true' }).redisUrl ?? '';
    expect(clusterSeeds(several)?.map((seed) => seed.host)).to.deep.equal(['a:7000', 'b:7001', 'c:7002']);
    expect(redisHosts(several)).to.equal('a:7000,b:7001,c:7002');
    // the form handed to a child process reads the same
    expect(configWith({ REDIS_URL: several }).redisUrl).to.equal(several);
  });

  it('refuses several nodes without REDIS_CLUSTER, REDIS_CLUSTER without REDIS_URL, and what is not a redis URL, by name', () => {
    expect(() => configWith({ REDIS_URL: 'redis://a:7000,redis://b:7001' })).to.throw(ConfigError, /^REDIS_URL: several nodes/);
    expect(() => configWith({ REDIS_CLUSTER: 'true' })).to.throw(ConfigError, /^REDIS_CLUSTER: needs REDIS_URL/);
    for (const bad of ['http://a:6379', 'redis://a:6379,', 'a:6379', 'redis://a:6379, redis://b:6379']) {
      expect(() => configWith({ REDIS_URL: bad, REDIS_CLUSTER: 'true' }), bad).to.throw(ConfigError, /^REDIS_URL/);
    }
    expect(() => configWith({ REDIS_URL: 'redis://a:6379', REDIS_CLUSTER: 'yes please' })).to.throw(ConfigError, /^REDIS_CLUSTER/);
  });

  it('takes a command the Cluster client gave up redirecting (a slot moving) as Redis not serving yet: retryable', () => {
    const tryAgain = new Error(
      'Too many Cluster redirections. Last error: ReplyError: TRYAGAIN Multiple keys request during rehashing of slot',
    );
    expect(isRedisUnreachable(tryAgain)).to.equal(true);
    // a script touching a key of a migrating slot (the scripts touch every key before they write: nothing changed)
    const nonLocal = new Error('ERR Script attempted to access a non local key in a cluster node script: 22f67a2d, on @user_script:94.');
    expect(isRedisUnreachable(nonLocal)).to.equal(true);
    expect(isRedisUnreachable(new Error("CROSSSLOT Keys in request don't hash to the same slot"))).to.equal(false);
  });
});
