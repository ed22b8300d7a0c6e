import { expect } from 'chai';
import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis, createRedis, oneWritePerTick } from '../../shared/redis/connection.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';

/** The server's count of read events (each arrival of a client's bytes it read), asked on another connection. */
async function readsProcessed(observer: RedisClient): Promise<number> {
  const stats = await observer.info('stats');
  return Number(/total_reads_processed:(\d+)/.exec(stats)?.[1]);
}

describe("one write per tick on a connection (the API pod's)", function () {
  let observer: RedisClient;
  let client: Redis;

  before(async function () {
    observer = await freshRedis();
    // a Cluster client writes to each node on its own: the policy is for one server
    if (observer instanceof Cluster) this.skip();
    client = createRedis(testRedisUrl(), { enableAutoPipelining: false }) as Redis;
    oneWritePerTick(client);
    await client.ping();
  });
  after(async () => {
    await closeRedis(...[observer, client].filter((c) => c !== undefined));
  });

  it('sends the commands one tick makes in one write: the server reads them in one go, and each answers in order', async () => {
    await client.set('tick:a', '1');
    const before = await readsProcessed(observer);
    const replies = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => client.incr(`tick:n${i % 5}`)),
      client.get('tick:a'),
      client.set('tick:b', '2'),
    ]);
    // one read for the 52 commands, one for the INFO that asks
    expect((await readsProcessed(observer)) - before).to.equal(2);
    expect(replies.slice(0, 50)).to.deep.equal(Array.from({ length: 50 }, (_, i) => Math.floor(i / 5) + 1));
    expect(replies.slice(50)).to.deep.equal(['1', 'OK']);
  });

  it('writes again on the next tick: an awaited command is never held back', async () => {
    const first = await client.incr('tick:later');
    const second = await client.incr('tick:later');
    expect([first, second]).to.deep.equal([1, 2]);
    expect(client.stream.writableCorked).to.equal(0);
  });

  it('keeps the policy over a reconnect (a new socket)', async () => {
    const reconnected = new Promise((resolve) => client.once('ready', resolve));
    client.stream.destroy();
    await reconnected;
    const before = await readsProcessed(observer);
    await Promise.all(Array.from({ length: 20 }, () => client.incr('tick:again')));
    expect((await readsProcessed(observer)) - before).to.equal(2);
  });
});
