// @three-masters: the trade index read in pages
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { freshRedis } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Trade = { id: string; closed_ts: number };
type Page = { trades: Trade[]; count: number; next_before: number | string | null };

/** The API's clock stands still, so every close of a step is stored with the same millisecond. */
describe('bot trading: /trades pages when many trades closed in one millisecond', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let api: TestApi;
  let trader: Trader;
  let now = Date.now();

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' }, { clock: { now: () => now } });
    await new TestPrices(redis).set({ ETHUSDT: 3000 });
    trader = await createTrader(accountServices(redis));
  });
  after(async () => {
    await api.close();
    await closeRedis(redis);
  });

  const call = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => botCall<T>(api.url, trader, method, path, body);
  /** Opens n positions and closes them all at the clock's millisecond. */
  const closeAt = async (ts: number, n: number) => {
    now = ts;
    for (let i = 0; i < n; i++)
      expect((await call('POST', '/open', { symbol: 'ETH', side: 'long', margin_usd: 5, leverage: 2 })).status).to.equal(200);
    expect((await call<{ closed: number }>('POST', '/close_all', {})).body.closed).to.equal(n);
  };

  it('never answers more than limit rows, and before = next_before visits every trade once, newest first (ties by id)', async () => {
    const t = now;
    await closeAt(t - 1, 2);
    await closeAt(t, 7);
    await closeAt(t + 1, 3);
    const all = (await call<Page>('GET', '/trades?limit=500')).body.trades;
    expect(all).to.have.length(12);
    // newest first, then by id descending within a millisecond
    const sorted = [...all].sort((a, b) => b.closed_ts - a.closed_ts || (a.id < b.id ? 1 : -1));
    expect(all.map((r) => r.id)).to.deep.equal(sorted.map((r) => r.id));

    for (const limit of [1, 2, 3, 5, 7, 11, 12]) {
      const seen: string[] = [];
      const cursors: (number | string)[] = [];
      let before: number | string | null = null;
      do {
        const r: { status: number; body: Page } = await call<Page>(
          'GET',
          `/trades?limit=${limit}${before === null ? '' : `&before=${before}`}`,
        );
        expect(r.status).to.equal(200);
        expect(r.body.trades.length, `limit ${limit}`).to.be.within(1, limit);
        expect(r.body.count).to.equal(r.body.trades.length);
        seen.push(...r.body.trades.map((row) => row.id));
        before = r.body.next_before;
        if (before !== null) cursors.push(before);
      } while (before !== null && seen.length <= all.length);
      expect(seen, `limit ${limit}`).to.deep.equal(all.map((r) => r.id));
      if (limit === 2) {
        // a page ending between milliseconds gives the spec's plain unix ms; one ending inside a millisecond, ms:id
        expect(cursors.some((c) => typeof c === 'number')).to.equal(true);
        expect(cursors.some((c) => typeof c === 'string' && c.startsWith(`${t}:`))).to.equal(true);
      }
    }
    // a plain ms cursor, as clients have sent it: everything closed before that millisecond
    const older = (await call<Page>('GET', `/trades?before=${t}`)).body;
    expect(older.trades.map((r) => r.closed_ts)).to.deep.equal([t - 1, t - 1]);
    expect(older.next_before).to.equal(null);
  });
});
