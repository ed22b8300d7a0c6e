import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { keys } from '../../shared/redis/keys.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { HISTORY_DAYS, hourOf, LatamStore } from '../../shared/latam/latam-store.js';
import { SnapshotStore } from '../../shared/snapshots/snapshot-store.js';
import { freshRedis } from '../helpers/redis.js';

describe('latam store (real Redis)', () => {
  let redis: RedisClient;
  let store: LatamStore;
  before(async () => {
    redis = await freshRedis();
    store = new LatamStore(redis, new SnapshotStore(redis));
  });
  after(async () => {
    await closeRedis(redis);
  });

  it('keeps one point per hour, replaces a second write in the same hour, and trims points older than 30 days', async () => {
    const now = Date.parse('2026-11-22T10:20:00Z');
    const hour = hourOf(now);
    const day = 86_400_000;
    await store.appendHistory('ar', { t: hour - (HISTORY_DAYS + 1) * day, mid: 1 }, hour - (HISTORY_DAYS + 1) * day);
    await store.appendHistory('ar', { t: hour - 2 * 3_600_000, mid: 2 }, now);
    await store.appendHistory('ar', { t: hour, mid: 3 }, now);
    await store.appendHistory('ar', { t: hour, mid: 4 }, now);
    expect(await store.readHistory('ar', now)).to.deep.equal([
      { t: hour - 2 * 3_600_000, mid: 2 },
      { t: hour, mid: 4 },
    ]);
    expect(await redis.zcard(keys.latamHistory('ar'))).to.equal(2);
    expect(await store.readHistory('br', now)).to.deep.equal([]);
  });

  it("stores each source's last answer and the quote snapshot", async () => {
    await store.saveSources('br', { foxbit: { ok: false, attemptAt: 2, at: 1, data: { btc: { ask: 1, bid: 1 } }, error: 'HTTP 503' } });
    expect((await store.readSources('br')).foxbit).to.include({ ok: false, at: 1 });
    await store.saveQuote('br', { quote: { n: 1 }, sourcesDown: ['foxbit'] }, 10);
    await store.saveQuoteFailure('br', new Error('no venue quotes'), 20);
    const snapshot = await store.readQuote<{ n: number }>('br');
    expect(snapshot).to.deep.equal({
      data: { quote: { n: 1 }, sourcesDown: ['foxbit'] },
      fetchedAt: 10,
      attemptAt: 20,
      attemptOk: false,
      error: 'no venue quotes',
    });
  });
});
