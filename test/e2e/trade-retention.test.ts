// @three-masters: the prune reads its per-slot indexes master by master; the audit CLI walks every account
import { expect } from 'chai';
import { runCli } from '../../ops/cli/cli-run.js';
import { computeClose } from '../../shared/engine/close-record.js';
import { closeWrite } from '../../shared/paper/positions/close-service.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import { pruneLimits, TradePrune } from '../../shared/paper/positions/trade-prune.js';
import { keys } from '../../shared/redis/keys.js';
import { keysMatching, testRedisUrl } from '../helpers/redis.js';
import { testPosition } from '../helpers/sweep.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

const DAY = 86_400_000;

/**
 * The retention over real HTTP: a book with trades closed long ago (settled through the close script at those times)
 * and trades made through the API now answers /trades, /report, /equity, /account and /balance the same after the
 * prune, and `cli audit` finds no difference, while the old trades are gone from Redis.
 */
describe('trade retention: what the API and the audit answer is unchanged by a prune', function () {
  this.timeout(60_000);
  const fixture = useTradingFixture({ BTCUSDT: 60_000, ETHUSDT: 3_000 });

  async function settleAt(ref: BookRef, closed: number, exit: number): Promise<void> {
    const store = new PositionStore(fixture.redis);
    const position = testPosition(ref, { symbol: 'ETHUSDT', side: 'long', entry: 3_000, opened_ts: closed - 3_600_000 });
    expect((await store.open(ref, position, 1000)).kind).to.equal('opened');
    const read = (await store.getOpen(ref, position.id))!;
    const settled = computeClose(read.position, exit, 100, 0, closed, 'manual');
    expect((await store.close(closeWrite(ref, read, settled, null, 'position.closed'))).kind).to.equal('closed');
  }

  const get = async (who: Trader, path: string): Promise<unknown> => {
    const r = await botCall(fixture.api.url, who, 'GET', path);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body;
  };

  /** Everything a client reads of the book (the equity curve's points move with the minute: its totals are compared). */
  async function answers(who: Trader) {
    // the read models' caches dropped, so each answer is computed again from what is stored
    const cached = await keysMatching(fixture.redis, `acct:{${who.accountId}}:b:main:an:cache:*`);
    await Promise.all(cached.map((key) => fixture.redis.del(key)));
    const equity = (await get(who, '/equity?days=90')) as { points: { realized_pnl_usd: number }[]; now: number };
    return {
      trades: await get(who, '/trades?limit=500'),
      report: ((await get(who, '/report?days=90')) as { total: unknown }).total,
      equity: { now: equity.now, realized: equity.points.at(-1)!.realized_pnl_usd },
      account: await get(who, '/account'),
      balance: await get(who, '/balance'),
    };
  }

  const audit = async (): Promise<{ code: number; stdout: string }> =>
    runCli(['audit'], { REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent' });

  it('old trades leave Redis; the answers and the audit stay the same', async () => {
    const trader = await createTrader(fixture.mod, { email: 'retention@example.org' });
    const ref: BookRef = { accountId: trader.accountId, book: 'main' };
    const now = Date.now();
    for (const [daysAgo, exit] of [
      [200, 3_100],
      [150, 2_950],
      [95, 3_040],
    ] as const)
      await settleAt(ref, now - daysAgo * DAY, exit);
    for (let i = 0; i < 3; i++) {
      const opened = await botCall<{ position: { id: string } }>(fixture.api.url, trader, 'POST', '/open', {
        symbol: 'BTC',
        side: i % 2 === 0 ? 'long' : 'short',
        margin_usd: 100,
        leverage: 10,
      });
      expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
      await fixture.prices.set({ BTCUSDT: 60_000 + (i + 1) * 150 });
      expect((await botCall(fixture.api.url, trader, 'POST', '/close', { id: opened.body.position.id })).status).to.equal(200);
    }
    expect(await fixture.redis.hlen(keys.bookClosed(ref.accountId, ref.book))).to.equal(6);
    const before = await answers(trader);
    expect((await audit()).code).to.equal(0);

    expect(await new TradePrune(fixture.redis, 90).run(Date.now(), pruneLimits(20_000))).to.deep.include({ trades: 3, complete: true });
    expect(await fixture.redis.hlen(keys.bookClosed(ref.accountId, ref.book))).to.equal(3);
    expect(await answers(trader)).to.deep.equal(before);
    const after = await audit();
    expect(after.code, after.stdout).to.equal(0);
  });
});
