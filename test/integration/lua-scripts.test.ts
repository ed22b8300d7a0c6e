// @three-masters: script caches per node (NOSCRIPT), CROSSSLOT
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LuaScripts } from '../../shared/redis/lua-scripts.js';
import { closeRedis, clusterSeeds, createRedis } from '../../shared/redis/connection.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';

/**
 * A script set over files of its own: `bump` runs INCRBY on its one key, answering the new value;
 * `tally` counts a call in a window with the rate-window include, answering {calls, ms left}.
 */
function counterScripts(): LuaScripts<'bump' | 'tally'> {
  const dir = mkdtempSync(join(tmpdir(), 'pd-lua-'));
  writeFileSync(join(dir, 'bump.lua'), "return redis.call('INCRBY', KEYS[1], ARGV[1])\n");
  writeFileSync(join(dir, 'tally.lua'), 'local calls, left = count_in_window(KEYS[1], ARGV[1])\nreturn {calls, left}\n');
  return new LuaScripts(pathToFileURL(join(dir, 'set.ts')).href, {
    bump: { version: 1, numberOfKeys: 1 },
    tally: { version: 2, numberOfKeys: 1, includes: ['rate-window'] },
  });
}

describe('Lua scripts (EVALSHA, EVAL after NOSCRIPT)', () => {
  let redis: RedisClient;
  before(async () => {
    await freshRedis();
    redis = createRedis(testRedisUrl());
  });
  after(async () => closeRedis(redis));

  it('runs a script the server has never seen, and again after its script cache was flushed', async () => {
    const scripts = counterScripts();
    expect(await scripts.run(redis, 'bump', { keys: ['lua:a'], args: [2] })).to.equal(2);
    await redis.script('FLUSH');
    expect(await scripts.run(redis, 'bump', { keys: ['lua:a'], args: [3] })).to.equal(5);
  });

  for (const transport of ['pipeline', 'one-write'] as const) {
    it(`runs many calls in one batch (${transport}), each once, in order, also after a flush`, async () => {
      const scripts = counterScripts();
      await redis.script('FLUSH');
      const calls = [1, 2, 3].map((n) => ({ keys: [`lua:b:${transport}`], args: [n] }));
      expect(await scripts.runMany(redis, 'bump', calls, transport)).to.deep.equal([1, 3, 6]);
      expect(await redis.get(`lua:b:${transport}`)).to.equal('6');
    });
  }

  it("sends a one-write batch in one write on a connection without auto-pipelining (the API's): the server reads the 50 calls at once", async function () {
    // one socket to one server: a Cluster client sends each call to its slot's node on its own (pipeline.ts)
    if (clusterSeeds(testRedisUrl())) this.skip();
    const scripts = counterScripts();
    const direct = createRedis(testRedisUrl(), { enableAutoPipelining: false });
    try {
      await scripts.run(direct, 'bump', { keys: ['lua:g'], args: [0] });
      const reads = async (): Promise<number> => Number(/total_reads_processed:(\d+)/.exec(await direct.info('stats'))?.[1]);
      const before = await reads();
      await scripts.runMany(
        direct,
        'bump',
        Array.from({ length: 50 }, () => ({ keys: ['lua:g'], args: [1] })),
        'one-write',
      );
      // one read for the batch, one for the INFO that reads the counter (uncorked, the first call goes out alone)
      expect((await reads()) - before).to.equal(2);
      expect(await direct.get('lua:g')).to.equal('50');
    } finally {
      await closeRedis(direct);
    }
  });

  it('a failing call of a one-write batch fails the batch; the others still ran, each once', async () => {
    const scripts = counterScripts();
    await redis.set('lua:h:bad', 'not a number');
    const calls = [
      { keys: ['lua:h:ok'], args: [1] },
      { keys: ['lua:h:bad'], args: [1] },
      { keys: ['lua:h:ok'], args: [1] },
    ];
    const error = await scripts.runMany(redis, 'bump', calls, 'one-write').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).to.match(/not an integer/);
    expect(await redis.get('lua:h:ok')).to.equal('2');
  });

  it('joins the auto-pipeline with other commands sent in the same turn', async () => {
    const scripts = counterScripts();
    const [bumped, read] = await Promise.all([scripts.run(redis, 'bump', { keys: ['lua:c'], args: [7] }), redis.get('lua:c')]);
    expect(bumped).to.equal(7);
    expect(read).to.be.oneOf([null, '7']);
    expect(await redis.get('lua:c')).to.equal('7');
  });

  it('refuses a call with the wrong number of keys before sending it', async () => {
    const scripts = counterScripts();
    const refusal = async (run: () => Promise<unknown>): Promise<string> =>
      run().then(
        () => 'sent',
        (e: unknown) => String(e),
      );
    expect(await refusal(() => scripts.run(redis, 'bump', { keys: ['lua:e', 'lua:f'], args: [1] }))).to.match(
      /script bump:1 takes 1 keys, got 2/,
    );
    expect(
      await refusal(() =>
        scripts.runMany(redis, 'bump', [
          { keys: ['lua:e'], args: [1] },
          { keys: [], args: [1] },
        ]),
      ),
    ).to.match(/takes 1 keys, got 0/);
    expect([await redis.exists('lua:e'), await redis.exists('lua:f')]).to.deep.equal([0, 0]);
  });

  it('passes a script error through without retrying it', async () => {
    const scripts = counterScripts();
    await redis.set('lua:d', 'not a number');
    let error: unknown;
    await scripts.run(redis, 'bump', { keys: ['lua:d'], args: [1] }).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/not an integer/);
    // the message stays Redis's own; the script is named beside it, for the log
    expect(error).to.have.property('script', 'bump:1');
    expect(await redis.get('lua:d')).to.equal('not a number');
  });

  it('sends the includes a script lists ahead of it', async () => {
    const scripts = counterScripts();
    const tally = async (): Promise<number[]> => (await scripts.run(redis, 'tally', { keys: ['lua:i'], args: [60_000] })) as number[];
    expect((await tally())[0]).to.equal(1);
    const [calls, left] = await tally();
    expect(calls).to.equal(2);
    expect(left).to.be.within(1, 60_000);
    expect(scripts.id('tally')).to.equal('tally:2');
  });

  it('names the script and its version when a reply has the wrong shape', async () => {
    const scripts = counterScripts();
    const error = await scripts.runStatus(redis, 'bump', { keys: ['lua:j'], args: [1] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).to.equal('Error: script bump:1 answered 1');
  });
});
