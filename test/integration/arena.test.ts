// @three-masters: arena-close and the cross-account board
import { expect } from 'chai';
import fc from 'fast-check';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { publicHandle } from '../../shared/arena/arena-handle.js';
import type { StoredBoard } from '../../shared/arena/arena-rollup.js';
import { ArenaRollup, FINAL_AFTER_MS } from '../../shared/arena/arena-rollup.js';
import { bookMember, parseTally } from '../../shared/arena/arena-store.js';
import type { Clock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { AppError } from '../../shared/core/errors.js';
import { createDomain, type Domain } from '../../shared/domain.js';
import { seasonBounds, seasonExpiresAt, seasonOf } from '../../shared/engine/arena-season.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import type { RunningRole } from '../../workers/runtime.js';
import { waitFor } from '../helpers/market-wait.js';
import { indexOutbox, startTestRelay } from '../helpers/push.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';

/** A clock the test moves. */
class TestClock implements Clock {
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
}

interface Close {
  id: string;
  closedTs: number;
  pnlUsd: number;
  roePct: number;
  liquidated?: boolean;
  book?: string;
  src?: string;
  realism?: { slippage: boolean; margin_tiers: boolean; margin_venue: string };
}

/** Appends close entries to an account's outbox as position-close.lua does (no nudge: the caller decides who relays them). */
async function appendCloses(redis: RedisClient, accountId: string, closes: readonly Close[]): Promise<void> {
  for (const c of closes) {
    const record = {
      id: c.id,
      status: 'closed',
      closed_ts: c.closedTs,
      pnl_usd: c.pnlUsd,
      roe_pct: c.roePct,
      liquidated: c.liquidated === true,
      account: c.book ?? 'main',
      ...(c.src ? { src: c.src } : {}),
      ...(c.realism ? { realism: c.realism } : {}),
    };
    const event = c.liquidated ? 'position.liquidated' : 'position.closed';
    await redis.xadd(
      keys.accountOutbox(accountId),
      '*',
      'event',
      event,
      'book',
      c.book ?? 'main',
      'ts',
      String(c.closedTs),
      'position',
      JSON.stringify(record),
    );
  }
  await indexOutbox(redis, accountId);
}

async function outboxEntries(redis: RedisClient, accountId: string) {
  const rows = await redis.xrange(keys.accountOutbox(accountId), '-', '+');
  return rows.map(([id, flat]) => ({ id, fields: Object.fromEntries(flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1]]] : []))) }));
}

describe('arena: season tallies, the relay, the rollup (real Redis)', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let clock: TestClock;
  let domain: Domain;
  // the real current season: Redis expires a season's keys by the wall clock, 6 seasons after it ended
  const season = seasonOf(Date.now());
  const { start, end } = seasonBounds(season);

  beforeEach(async () => {
    redis = await freshRedis();
    clock = new TestClock(start + 86_400_000);
    domain = createDomain({ config: configWith({ REDIS_URL: testRedisUrl() }), redis, clock });
  });
  afterEach(() => closeRedis(redis));

  const tallyOf = async (accountId: string, book = 'main', s = season) => {
    const packed = await redis.hget(keys.arenaTallies(s), bookMember(accountId, book));
    return packed === null ? undefined : parseTally(packed);
  };

  it('counts a close the relay delivers twice once: counted by a relay that died before removing it, then relayed again', async () => {
    const closes: Close[] = [
      { id: 'bp1', closedTs: start + 1000, pnlUsd: 12.34, roePct: 12.34 },
      { id: 'bp2', closedTs: start + 2000, pnlUsd: -5, roePct: -5, liquidated: true },
      { id: 'bp3', closedTs: start + 3000, pnlUsd: 0.01, roePct: 0.01, book: 'alpha' },
    ];
    await appendCloses(redis, 'acc_twice', closes);
    // the first relay counted the batch and died before its XDEL: the entries are still in the outbox
    await domain.arena.recorder.record('acc_twice', await outboxEntries(redis, 'acc_twice'));
    let relay: RunningRole | undefined;
    try {
      // the next relay finds them (its first scan) and delivers them again, counting nothing twice
      relay = await startTestRelay(redis, { RELAY_SCAN_MS: '100' });
      await waitFor(async () => (await redis.xlen(keys.accountOutbox('acc_twice'))) === 0, 5_000, 'the outbox relayed');
    } finally {
      await relay?.stop();
    }
    // main: +12.34 and -5.00 (liquidated): 2 closes, 1 win, 734 cents, ROE 1234 - 500 = 734 hundredths
    expect(await tallyOf('acc_twice')).to.deep.equal({
      closes: 2,
      wins: 1,
      pnlCents: 734,
      roeSumBp: 734,
      liquidations: 1,
      slippageCloses: 0,
      tieredCloses: 0,
    });
    expect((await tallyOf('acc_twice', 'alpha'))?.closes).to.equal(1);
  });

  it('counts closes once when two relays deliver the same entries at the same moment (arena-close.lua races itself)', async () => {
    await appendCloses(
      redis,
      'acc_race',
      Array.from({ length: 6 }, (_, i) => ({ id: `r${i}`, closedTs: start + i, pnlUsd: i - 2, roePct: i })),
    );
    const entries = await outboxEntries(redis, 'acc_race');
    await Promise.all(Array.from({ length: 4 }, () => domain.arena.recorder.record('acc_race', entries)));
    // -2 - 1 + 0 + 1 + 2 + 3 = 3 USD; wins: 1, 2, 3
    expect(await tallyOf('acc_race')).to.deep.include({ closes: 6, wins: 3, pnlCents: 300, roeSumBp: 1500 });
    expect(await redis.zscore(keys.arenaRanking(season), bookMember('acc_race', 'main'))).to.equal('300');
  });

  it('sums any closes exactly once whatever the batches and redeliveries (property, against Redis)', async () => {
    const close = fc.record({ cents: fc.integer({ min: -100_000, max: 100_000 }), roeBp: fc.integer({ min: -100_000, max: 100_000 }) });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(close, { minLength: 1, maxLength: 25 }),
        fc.array(fc.nat({ max: 25 }), { maxLength: 6 }),
        async (closes, cuts) => {
          const accountId = `acc_p${++n}`;
          await appendCloses(
            redis,
            accountId,
            closes.map((c, i) => ({ id: `p${i}`, closedTs: start + i, pnlUsd: c.cents / 100, roePct: c.roeBp / 100 })),
          );
          const entries = await outboxEntries(redis, accountId);
          // batches end at the cuts; each batch is delivered, then delivered again from the start (a relay that died before its ack)
          let from = 0;
          for (const cut of [...new Set(cuts)].sort((a, b) => a - b).concat(entries.length)) {
            const upTo = Math.min(cut, entries.length);
            if (upTo <= from) continue;
            await domain.arena.recorder.record(accountId, entries.slice(from, upTo));
            await domain.arena.recorder.record(accountId, entries.slice(0, upTo));
            from = upTo;
          }
          const sum = (f: (c: { cents: number; roeBp: number }) => number) => closes.reduce((s, c) => s + f(c), 0);
          expect(await tallyOf(accountId)).to.deep.include({
            closes: closes.length,
            wins: sum((c) => (c.cents > 0 ? 1 : 0)),
            pnlCents: sum((c) => c.cents),
            roeSumBp: sum((c) => c.roeBp),
          });
          // in the ranking, by its P&L, once it has 5 closes
          const score = await redis.zscore(keys.arenaRanking(season), bookMember(accountId, 'main'));
          expect(score === null ? null : Number(score)).to.equal(closes.length >= 5 ? sum((c) => c.cents) : null);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('puts a close in the season of its close time (boundary millisecond included), expiring with that season; skips replays', async () => {
    await appendCloses(redis, 'acc_edge', [
      { id: 'last', closedTs: end - 1, pnlUsd: 1, roePct: 1 },
      { id: 'first', closedTs: end, pnlUsd: 2, roePct: 2 },
      { id: 'replayed', closedTs: end - 2, pnlUsd: 1000, roePct: 100, src: 'replay' },
      { id: 'real', closedTs: end - 3, pnlUsd: 3, roePct: 3, realism: { slippage: true, margin_tiers: false, margin_venue: '' } },
    ]);
    await domain.arena.recorder.record('acc_edge', await outboxEntries(redis, 'acc_edge'));
    expect(await tallyOf('acc_edge', 'main', season)).to.deep.include({ closes: 2, pnlCents: 400, slippageCloses: 1, tieredCloses: 0 });
    expect(await tallyOf('acc_edge', 'main', season + 1)).to.deep.include({ closes: 1, pnlCents: 200 });
    expect(await redis.pexpiretime(keys.arenaTallies(season))).to.equal(seasonExpiresAt(season));
    expect(await redis.pexpiretime(keys.arenaTallies(season + 1))).to.equal(seasonExpiresAt(season + 1));
  });

  it('ranks books with at least 5 closes, stores the board, and finalizes the previous season after its grace', async () => {
    // five closes for a, six for b (one liquidation), four for c (not ranked, whatever its P&L)
    const series = (prefix: string, pnl: number[], book = 'main'): Close[] =>
      pnl.map((p, i) => ({ id: `${prefix}${i}`, closedTs: start + 10 * i, pnlUsd: p, roePct: p, book, liquidated: p === -100 }));
    await appendCloses(redis, 'acc_a', series('a', [10, 20, -5, 0, 15.5]));
    await appendCloses(redis, 'acc_b', series('b', [100, -100, 50, 25, 1, 2]));
    await appendCloses(redis, 'acc_c', series('c', [500, 500, 500, 500]));
    for (const id of ['acc_a', 'acc_b', 'acc_c']) await domain.arena.recorder.record(id, await outboxEntries(redis, id));

    const results = await domain.arena.rollup.run();
    expect(results).to.deep.equal([
      { season, books: 3, ranked: 2, final: false },
      // the previous season ended a day ago, past its grace: its (empty) board is final at once
      { season: season - 1, books: 0, ranked: 0, final: true },
    ]);
    const answer = await domain.arena.service.board();
    expect(answer).to.include({ ok: true, season, min_closes: 5, computed_ts: clock.at, final: false });
    // b: 100 - 100 + 50 + 25 + 1 + 2 = 78 USD, 5 wins of 6 = 83.33%, ROE mean 78 / 6 = 13%, return 78 / 10,000 = 0.78%
    // a: 10 + 20 - 5 + 0 + 15.5 = 40.5 USD, 3 wins of 5 = 60%, ROE mean 8.1%, return 0.41% (0.405 rounded half up)
    expect(
      answer.rows.map((r) => [r.rank, r.who, r.account, r.closes, r.wins, r.win_rate_pct, r.pnl_usd, r.return_pct, r.avg_roe_pct]),
    ).to.deep.equal([
      [1, publicHandle('acc_b'), 'main', 6, 5, 83.33, 78, 0.78, 13],
      [2, publicHandle('acc_a'), 'main', 5, 3, 60, 40.5, 0.41, 8.1],
    ]);
    expect(answer.rows[0]).to.include({
      liquidations: 1,
      open_positions: 0,
      open_margin_usd: 0,
      open_unrealized_usd: 0,
      pnl_incl_open_usd: 78,
    });
    expect(answer.rows[0].realism).to.deep.equal({ slippage_closes: 0, tiered_closes: 0, label: 'off' });

    // the season ended: ranked again (a late close counts) until its grace is over, then final and left alone
    clock.at = end + 1000;
    await appendCloses(redis, 'acc_a', [{ id: 'late', closedTs: end - 1, pnlUsd: 100, roePct: 1 }]);
    await domain.arena.recorder.record('acc_a', (await outboxEntries(redis, 'acc_a')).slice(-1));
    expect((await domain.arena.rollup.run()).map((r) => [r.season, r.final])).to.deep.equal([
      [season + 1, false],
      [season, false],
    ]);
    clock.at = end + FINAL_AFTER_MS;
    expect((await domain.arena.rollup.run()).map((r) => [r.season, r.final])).to.deep.equal([
      [season + 1, false],
      [season, true],
    ]);
    const finalBoard = JSON.parse((await redis.get(keys.arenaBoard(season))) ?? 'null') as StoredBoard;
    expect(finalBoard.rows.map((r) => [r.who, r.pnl_usd])).to.deep.equal([
      [publicHandle('acc_a'), 140.5],
      [publicHandle('acc_b'), 78],
    ]);
    clock.at += 60_000;
    expect((await domain.arena.rollup.run()).map((r) => r.season)).to.deep.equal([season + 1]);
    expect(await redis.pexpiretime(keys.arenaBoard(season))).to.equal(seasonExpiresAt(season));
  });

  it('decides ties at the cut by the ranking rule (more wins, then the id), not by the order Redis keeps them', async () => {
    // four books at 50.00 with 5 closes: x has 5 wins, w and z 4, y 3; one row beyond the best (v, 60.00) is shown
    const fives = (accountId: string, pnl: number[]) =>
      appendCloses(
        redis,
        accountId,
        pnl.map((p, i) => ({ id: `${accountId}${i}`, closedTs: start + i, pnlUsd: p, roePct: 1 })),
      );
    await fives('acc_v', [12, 12, 12, 12, 12]);
    await fives('acc_w', [20, 20, 10, 10, -10]);
    await fives('acc_x', [10, 10, 10, 10, 10]);
    await fives('acc_y', [30, 20, 10, 0, -10]);
    await fives('acc_z', [20, 20, 10, 10, -10]);
    for (const id of ['acc_v', 'acc_w', 'acc_x', 'acc_y', 'acc_z']) await domain.arena.recorder.record(id, await outboxEntries(redis, id));
    const rollup = new ArenaRollup({
      store: domain.arena.store,
      positions: domain.stores.positions,
      prices: domain.trading.prices,
      funding: domain.stores.funding,
      clock,
      rows: 3,
    });
    await rollup.rank(season, clock.at);
    const board = JSON.parse((await redis.get(keys.arenaBoard(season))) ?? 'null') as StoredBoard;
    // v 60.00 first; then x (5 wins) ahead of w and z (4 wins each), w before z by id; y (3 wins) is cut
    expect(board.rows.map((r) => [r.rank, r.who, r.pnl_usd])).to.deep.equal([
      [1, publicHandle('acc_v'), 60],
      [2, publicHandle('acc_x'), 50],
      [2, publicHandle('acc_w'), 50],
    ]);
    expect(board).to.include({ books: 5, ranked: 5 });
  });

  it('answers the current season and the 6 before it; any other is 400 bad_season naming the range', async () => {
    clock.at = seasonBounds(season).start;
    const empty = await domain.arena.service.board();
    expect(empty).to.deep.include({ season, season_start: new Date(start).toISOString().slice(0, 10), computed_ts: null, rows: [] });
    expect(empty.seasons).to.deep.equal({ oldest: season - 6, current: season });
    expect((await domain.arena.service.board(season - 6)).season).to.equal(season - 6);
    for (const asked of [season - 7, season + 1]) {
      const error = await domain.arena.service.board(asked).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(AppError);
      expect(error).to.include({ code: 'bad_season', status: 400 });
      expect((error as AppError).details).to.deep.equal({ param: 'season', oldest: season - 6, current: season });
    }
    // one millisecond earlier it is still the previous season
    clock.at = start - 1;
    expect((await domain.arena.service.board()).season).to.equal(season - 1);
  });
});
