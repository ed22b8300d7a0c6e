// @three-masters: arena-close over two keys and the cross-account board
/**
 * GET /api/arena end to end: trades through the HTTP API, closes counted by the outbox relay, the
 * board ranked by the scheduled rollup (a real BullMQ worker), served keyless and cached.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { ArenaAnswer } from '../../shared/arena/arena-service.js';
import { publicHandle } from '../../shared/arena/arena-handle.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { createDomain } from '../../shared/domain.js';
import { seasonOf } from '../../shared/engine/arena-season.js';
import { keys } from '../../shared/redis/keys.js';
import { arenaRollupProcessor } from '../../workers/processors/arena/arena-rollup-processor.js';
import type { RunningRole } from '../../workers/runtime.js';
import { SCHEDULES } from '../../workers/schedules.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { getJson, startTestApi, type JsonResponse } from '../helpers/app.js';
import { HOSTILE_STRINGS } from '../helpers/hostile.js';
import { waitFor } from '../helpers/market-wait.js';
import { startTestRelay } from '../helpers/push.js';
import { testRedisUrl } from '../helpers/redis.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

type Pos = Record<string, unknown> & { id: string; pnl_usd?: number; roe_pct?: number; unrealized_pnl_usd?: number };
type ErrorBody = { ok: false; error: { code: string; message: string } };

describe('arena: GET /api/arena', function () {
  this.timeout(60_000);
  const stack = useTradingFixture({ BTCUSDT: 60000 });
  let relay: RunningRole;
  const emails = { alice: `alice-${Date.now()}@example.org`, bob: `bob-${Date.now()}@example.org` };
  let alice: Trader;
  let aliceAlpha: Trader;
  let bob: Trader;
  /** Each book's closed records as the close answers gave them. */
  const closed = new Map<Trader, Pos[]>();
  let kept: Pos;
  let first: JsonResponse<ArenaAnswer>;
  let firstText: string;

  const call = (who: Trader, method: 'GET' | 'POST', path: string, body?: unknown) =>
    botCall<Record<string, unknown>>(stack.api.url, who, method, path, body);
  const open = async (who: Trader): Promise<Pos> => {
    const r = await call(who, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position as Pos;
  };
  const close = async (who: Trader, id: string): Promise<void> => {
    const r = await call(who, 'POST', '/close', { id, symbol: 'BTC' });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    closed.get(who)?.push(r.body.closed as Pos);
  };
  const drained = (who: Trader) =>
    waitFor(async () => (await stack.redis.xlen(keys.accountOutbox(who.accountId))) === 0, 5_000, `the outbox of ${who.book} relayed`);
  const arena = (query = '', base = stack.api.url) => getJson<ArenaAnswer>(`${base}/api/arena${query}`);
  const rowOf = (body: ArenaAnswer, who: Trader) => body.rows.find((r) => r.who === publicHandle(who.accountId) && r.account === who.book);

  before(async () => {
    relay = await startTestRelay(stack.redis);
    alice = await createTrader(stack.mod, { email: emails.alice });
    aliceAlpha = await createTrader(stack.mod, { email: emails.alice, book: 'alpha' });
    bob = await createTrader(stack.mod, { email: emails.bob });
    for (const t of [alice, aliceAlpha, bob]) closed.set(t, []);
    // at 60,000: alice opens 5 (one of them raced below), alpha 6, bob 4; at 61,000 they close; at 62,000 alice keeps one open
    await stack.prices.set({ BTCUSDT: 60000 });
    const opened = new Map<Trader, Pos[]>();
    for (const [who, n] of [
      [alice, 5],
      [aliceAlpha, 6],
      [bob, 4],
    ] as const) {
      const positions: Pos[] = [];
      for (let i = 0; i < n; i++) positions.push(await open(who));
      opened.set(who, positions);
    }
    await stack.prices.set({ BTCUSDT: 61000 });
    const [raced, ...rest] = opened.get(alice) ?? [];
    // two closes of one position at once: one settles it, the other is told it is already closed
    const race = await Promise.all([1, 2].map(() => call(alice, 'POST', '/close', { id: raced.id, symbol: 'BTC' })));
    expect(race.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    closed.get(alice)?.push(race.find((r) => r.status === 200)?.body.closed as Pos);
    for (const p of rest) await close(alice, p.id);
    for (const p of opened.get(aliceAlpha) ?? []) await close(aliceAlpha, p.id);
    for (const p of opened.get(bob) ?? []) await close(bob, p.id);
    // alice's one open position, marked at 62,000 when the board is ranked
    await stack.prices.set({ BTCUSDT: 61000 });
    kept = await open(alice);
    await stack.prices.set({ BTCUSDT: 62000 });
    for (const t of [alice, aliceAlpha, bob]) await drained(t);

    // the scheduled rollup, as the worker role runs it: its scheduler's first job runs at once
    const config = configWith({ REDIS_URL: testRedisUrl() });
    const worker = await startWorkerRole(
      { config, redisUrl: testRedisUrl(), redis: stack.redis, logger: createLogger(config) },
      { processors: [arenaRollupProcessor], schedules: SCHEDULES.filter((s) => s.id === 'arena-rollup'), relay: false },
    );
    try {
      await waitFor(() => stack.redis.get(keys.arenaBoard(seasonOf(Date.now()))), 10_000, 'the scheduled rollup to store the board');
    } finally {
      await worker.stop();
    }
    first = await arena();
    firstText = JSON.stringify(first.body);
  });
  after(() => relay.stop());

  it('ranks the books with at least 5 closes in the season by realized P&L, each close counted once (a raced close too)', () => {
    expect(first.status).to.equal(200);
    const body = first.body;
    expect(body).to.include({ ok: true, season: seasonOf(Date.now()), min_closes: 5 });
    expect(body.note).to.be.a('string').and.contain('14-day');
    // what the win rate counts, and what it hides
    expect(body.note).to.contain('win_rate_pct counts closed trades only').and.contain('holds its losers');
    // alpha: 6 closes, alice main: 5 (the raced close once); bob's 4 closes are not enough
    expect(body.rows.map((r) => [r.rank, r.account, r.closes])).to.deep.equal([
      [1, 'alpha', 6],
      [2, 'main', 5],
    ]);
    expect(rowOf(body, bob)).to.equal(undefined);
    for (const who of [alice, aliceAlpha]) {
      const records = closed.get(who) ?? [];
      const cents = records.reduce((sum, p) => sum + Math.round((p.pnl_usd ?? 0) * 100), 0);
      const roe = records.reduce((sum, p) => sum + Math.round((p.roe_pct ?? 0) * 100), 0);
      const wins = records.filter((p) => (p.pnl_usd ?? 0) > 0).length;
      expect(rowOf(body, who)).to.deep.include({
        closes: records.length,
        wins,
        win_rate_pct: Math.round((wins / records.length) * 10_000) / 100,
        pnl_usd: cents / 100,
        return_pct: Math.round(cents / 100) / 100,
        avg_roe_pct: Math.round(roe / records.length) / 100,
        liquidations: 0,
        realism: { slippage_closes: 0, tiered_closes: 0, label: 'off' },
      });
    }
  });

  it("shows the ranked books' open positions at mark: alice's one open long at 62,000, what /positions shows it would settle", async () => {
    // the fixture sets its prices again before each test: back to the mark the board was ranked at
    await stack.prices.set({ BTCUSDT: 62000 });
    const positions = await call(alice, 'GET', '/positions');
    const open = (positions.body.positions as Pos[]).find((p) => p.id === kept.id);
    expect(open?.unrealized_pnl_usd).to.be.a('number').and.above(0);
    const row = rowOf(first.body, alice);
    expect(row).to.deep.include({ open_positions: 1, open_margin_usd: 100, open_unrealized_usd: open?.unrealized_pnl_usd });
    expect(row?.pnl_incl_open_usd).to.equal(Math.round(((row?.pnl_usd ?? 0) + (open?.unrealized_pnl_usd ?? 0)) * 100) / 100);
    expect(rowOf(first.body, aliceAlpha)).to.deep.include({ open_positions: 0, open_margin_usd: 0, open_unrealized_usd: 0 });
  });

  it('names each account by a public handle, never its e-mail, a key or its id; its books share it', () => {
    expect(rowOf(first.body, alice)?.who).to.equal(rowOf(first.body, aliceAlpha)?.who);
    for (const secret of [emails.alice, emails.bob, 'alice-', '@', alice.apiKey, aliceAlpha.apiKey, alice.accountId, bob.accountId]) {
      expect(firstText).to.not.contain(secret);
    }
  });

  it('is keyless and cached 60 s: a board ranked again meanwhile is served from the next cache period on', async () => {
    // bob's fifth close ranks him; the board is stored again, but this API answers what it cached
    await stack.prices.set({ BTCUSDT: 62000 });
    const p = await open(bob);
    await close(bob, p.id);
    await drained(bob);
    const domain = createDomain({ config: configWith({ REDIS_URL: testRedisUrl() }), redis: stack.redis });
    await domain.arena.rollup.run();
    const again = await arena();
    expect(again.status).to.equal(200);
    expect(JSON.stringify(again.body)).to.equal(firstText);
    // a fresh API process (nothing cached) serves the new board
    const fresh = await startTestApi(stack.redis, { PUBLIC_RATE_LIMIT: '1000000' });
    try {
      const now = await arena('', fresh.url);
      expect(rowOf(now.body, bob)).to.deep.include({ closes: 5 });
      expect(now.body.computed_ts).to.be.above(first.body.computed_ts ?? Infinity);
    } finally {
      await fresh.close();
    }
  });

  it('answers ?season= for the 6 previous seasons; anything else is 400 bad_season, never a 500', async () => {
    const current = seasonOf(Date.now());
    const previous = await arena(`?season=${current - 6}`);
    expect(previous.status).to.equal(200);
    expect(previous.body).to.deep.include({ ok: true, season: current - 6, rows: [] });
    const named = ['0', '-1', '1.5', String(current + 1), String(current - 7), '1e400', ...HOSTILE_STRINGS];
    for (const value of named) {
      const r = await getJson<ErrorBody>(`${stack.api.url}/api/arena?season=${encodeURIComponent(value)}`);
      expect(r.status, value).to.equal(400);
      expect(r.body.error.code, value).to.equal('bad_season');
    }
    const repeated = await getJson<ErrorBody>(`${stack.api.url}/api/arena?season=${current}&season=${current - 1}`);
    expect([repeated.status, repeated.body.error.code]).to.deep.equal([400, 'bad_season']);
    await fc.assert(
      fc.asyncProperty(fc.string(), async (value) => {
        const r = await getJson<ErrorBody | ArenaAnswer>(`${stack.api.url}/api/arena?season=${encodeURIComponent(value)}`);
        if (r.status === 200) expect(Number(value.trim())).to.be.within(current - 6, current);
        else expect([r.status, (r.body as ErrorBody).error.code]).to.deep.equal([400, 'bad_season']);
      }),
      { numRuns: 50 },
    );
  });
});
