// @three-masters: the prune finds its books through per-slot indexes read master by master
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createDomain, type Domain } from '../../shared/domain.js';
import { CLOSE_REASONS } from '../../shared/engine/triggers.js';
import { LedgerReader } from '../../shared/paper/audit/ledger-reader.js';
import { reindexAll } from '../../shared/paper/audit/reindex.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { PLANS } from '../../shared/paper/plans.js';
import { computeClose, triggeredClose } from '../../shared/engine/close-record.js';
import { closeWrite } from '../../shared/paper/positions/close-service.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import { pruneLimits, TradePrune, type PruneLimits } from '../../shared/paper/positions/trade-prune.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { slotOf } from '../../shared/redis/slot-tags.js';
import { createLogger } from '../../shared/core/logger.js';
import { QUEUES } from '../../shared/queues/queue-names.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { SCHEDULES } from '../../workers/schedules.js';
import { tradePruneProcessor } from '../../workers/processors/retention/trade-prune-processor.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, testRedisUrl, watchCommands } from '../helpers/redis.js';
import { testPosition } from '../helpers/sweep.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** Monday 7 December 2026, 12:00 UTC: now, unless a test moves it. */
const NOW = Date.UTC(2026, 11, 7, 12);
const RETENTION_DAYS = 90;

/**
 * The retention of closed trades (trades-prune.lua, TradePrune): trades past it leave Redis, folded into the book's
 * compact counters, and nothing a client or the ledger audit reads changes. Trades are settled through the real
 * scripts at chosen times; a fixed clock stands for now.
 */
describe('trade prune: closed trades past the retention leave Redis, nothing else changes (real Redis)', () => {
  let redis: RedisClient;
  let other: RedisClient;
  let store: PositionStore;
  let domain: Domain;
  let now = NOW;
  let seq = 0;
  const prune = () => new TradePrune(redis, RETENTION_DAYS);
  const ctx = (ref: BookRef): KeyContext => ({
    keyId: 'k1',
    keyName: 'test',
    accountId: ref.accountId,
    email: `${ref.accountId}@example.org`,
    book: ref.book,
    bookBound: false,
    plan: { limits: PLANS.pro, until: now + 30 * DAY, daysLeft: null, source: 'paid' },
  });

  beforeEach(async () => {
    redis = await freshRedis();
    other = createRedis(testRedisUrl());
    store = new PositionStore(redis);
    now = NOW;
    domain = createDomain({ config: configWith({}), redis, clock: { now: () => now } });
  });
  afterEach(async () => {
    await closeRedis(redis, other);
  });

  /**
   * Opens an ETH long 10 @ 100 and settles it at `closed` ms: exit 100 + the seq's step (a win, a loss or a
   * liquidation in turn, so every counter the audit checks moves).
   */
  async function settle(ref: BookRef, closed: number, on: PositionStore = store): Promise<Position> {
    const n = seq++;
    const position = testPosition(ref, { symbol: 'ETHUSDT', side: 'long', entry: 100, qty: 10, opened_ts: closed - 30 * MIN });
    expect((await on.open(ref, position, 1000)).kind).to.equal('opened');
    const read = (await on.getOpen(ref, position.id))!;
    const liquidation = n % 3 === 2;
    const settled = liquidation
      ? triggeredClose(read.position, { reason: CLOSE_REASONS.liquidation, price: read.position.liq_price }, 0, closed)
      : computeClose(read.position, n % 3 === 0 ? 103 + n : 99 - (n % 7), 100, 0, closed, 'manual');
    const write = closeWrite(ref, read, settled, null, liquidation ? 'position.liquidated' : 'position.closed');
    expect((await on.close(write)).kind).to.equal('closed');
    return settled.closed;
  }

  /** What every read a client or the audit has of the book answers now. */
  async function reads(ref: BookRef) {
    const audit = await new LedgerReader(redis).auditBook({ accountId: ref.accountId, email: 'e' }, ref.book);
    return {
      trades: await domain.trading.reads.trades(ctx(ref), { limit: 500 }),
      report: await domain.trading.analytics.report(ctx(ref), { days: 90 }),
      equity: await domain.trading.analytics.equity(ctx(ref), { days: 90 }),
      balance: await domain.trading.reads.balance(ctx(ref)),
      differences: audit.differences,
    };
  }

  const storedIds = async (ref: BookRef): Promise<string[]> => (await redis.hkeys(keys.bookClosed(ref.accountId, ref.book))).sort();

  it('removes the trades closed before the retention, keeps the recent ones; /trades, /report, /equity, balance and audit unchanged', async () => {
    const ref: BookRef = { accountId: 'prunea', book: 'main' };
    const old = [];
    for (const daysAgo of [400, 200, 120, 95, 91]) old.push(await settle(ref, now - daysAgo * DAY));
    const recent = [];
    for (const daysAgo of [89, 30, 2, 0.01]) recent.push(await settle(ref, now - daysAgo * DAY));
    const before = await reads(ref);
    expect(before.differences).to.deep.equal([]);
    expect(before.trades.trades.map((t) => t.id)).to.have.members(recent.map((p) => p.id));

    const run = await prune().run(now, pruneLimits(20_000));
    expect(run).to.deep.include({ trades: old.length, books: 1, complete: true });
    expect(await storedIds(ref)).to.deep.equal(recent.map((p) => p.id).sort());
    expect(await redis.zcard(keys.bookClosedByTime(ref.accountId, ref.book))).to.equal(recent.length);
    // the reads as a client and the audit see them: the same answers (the caches dropped, so they are computed again)
    await Promise.all(['curve', 'report', 'skill'].map((what) => redis.del(keys.bookReadCache(ref.accountId, ref.book, what))));
    const after = await reads(ref);
    expect(after).to.deep.equal(before);
    // the pruned part, in compact form: the balance still is the starting balance + the trades kept + the aggregate
    const pruned = await redis.hgetall(keys.bookPruned(ref.accountId, ref.book));
    const cents = (ps: Position[]) => ps.reduce((sum, p) => sum + Math.round((p.pnl_usd ?? 0) * 100), 0);
    expect(Number(pruned.closed)).to.equal(old.length);
    expect(Number(pruned.realized_cents)).to.equal(cents(old));
    expect(after.balance.balance_usd * 100).to.be.closeTo(1_000_000 + cents(old) + cents(recent), 1e-6);

    // a later run finds nothing more until a kept trade passes the retention
    expect(await prune().run(now, pruneLimits(20_000))).to.deep.include({ trades: 0, books: 0 });
    now += 2 * DAY;
    expect(await prune().run(now, pruneLimits(20_000))).to.deep.include({ trades: 1, books: 1 });
    expect((await reads(ref)).differences).to.deep.equal([]);
  });

  it('prunes reset archives too: an archive past the retention leaves, its trades stay in the lifetime counters', async () => {
    const ref: BookRef = { accountId: 'pruneb', book: 'swing' };
    for (const daysAgo of [300, 250]) await settle(ref, now - daysAgo * DAY);
    now = NOW - 200 * DAY;
    await domain.trading.books.reset(ctx(ref), true);
    for (const daysAgo of [150, 100]) await settle(ref, NOW - daysAgo * DAY);
    now = NOW - 95 * DAY;
    await domain.trading.books.reset(ctx(ref), true);
    // one archive trade inside the retention, then the live period with an old and a recent trade
    const kept = [await settle(ref, NOW - 60 * DAY)];
    now = NOW - 50 * DAY;
    await domain.trading.books.reset(ctx(ref), true);
    await settle(ref, NOW - 40 * DAY);
    kept.push(await settle(ref, NOW - 1 * DAY));
    now = NOW;
    const audit = () => new LedgerReader(redis).auditBook({ accountId: ref.accountId, email: 'e' }, ref.book);
    expect((await audit()).differences).to.deep.equal([]);
    const counters = await store.counters(ref);

    // small calls: the archives are walked oldest first, one step at a time
    const run = await prune().run(now, { trades: 100, batch: 1, books: 10, slotsPerRead: 16_384 });
    expect(run).to.deep.include({ trades: 4, complete: true });
    // the first two resets' archives are gone; the third's keeps its trade of 60 days ago
    expect(await redis.zrange(keys.bookArchives(ref.accountId, ref.book), '0', '-1')).to.deep.equal([String(NOW - 50 * DAY)]);
    expect((await audit()).differences).to.deep.equal([]);
    expect(await store.counters(ref)).to.deep.equal(counters);

    // now the last archive's trade passes the retention, and the live trade of 40 days ago
    now = NOW + 55 * DAY;
    expect(await prune().run(now, pruneLimits(20_000))).to.deep.include({ trades: 2, complete: true });
    expect(await redis.zrange(keys.bookArchives(ref.accountId, ref.book), '0', '-1')).to.deep.equal([]);
    expect((await audit()).differences).to.deep.equal([]);
    expect(await redis.hkeys(keys.bookClosed(ref.accountId, ref.book))).to.deep.equal([kept[1].id]);
    // all gone: the book leaves the index
    now = NOW + 200 * DAY;
    expect(await prune().run(now, pruneLimits(20_000))).to.deep.include({ trades: 1, complete: true });
    expect(await redis.hlen(keys.bookClosed(ref.accountId, ref.book))).to.equal(0);
    expect((await audit()).differences).to.deep.equal([]);
    expect(await store.counters(ref)).to.deep.equal(counters);
    expect(await redis.zscore(keys.tradePruneIndex(ref.accountId), keys.bookClosedByTime(ref.accountId, ref.book))).to.equal(null);
  });

  it('a prune racing closes and another prune: every trade counted once, the book stays indexed by its oldest trade', async () => {
    const ref: BookRef = { accountId: 'prunec', book: 'main' };
    const old = [];
    for (let i = 0; i < 60; i++) old.push(await settle(ref, now - (100 + i) * DAY));
    const opened: Promise<Position>[] = [];
    const pods = [prune(), new TradePrune(other, RETENTION_DAYS)];
    const limits: PruneLimits = { trades: 1_000, batch: 3, books: 10, slotsPerRead: 16_384 };
    // two workers' runs and a third connection's closes, at once
    const otherStore = new PositionStore(other);
    const [a, b] = await Promise.all([
      pods[0].run(now, limits),
      pods[1].run(now, limits),
      ...Array.from({ length: 10 }, (_, i) => (opened[i] = settle(ref, now - (20 - i) * MIN, i % 2 === 0 ? store : otherStore))),
    ]);
    const fresh = await Promise.all(opened);
    expect(a.trades + b.trades).to.equal(old.length);
    expect(await storedIds(ref)).to.deep.equal(fresh.map((p) => p.id).sort());
    const pruned = await redis.hgetall(keys.bookPruned(ref.accountId, ref.book));
    expect(Number(pruned.closed)).to.equal(old.length);
    expect(Number(pruned.life_closed)).to.equal(old.length);
    const audit = await new LedgerReader(redis).auditBook({ accountId: ref.accountId, email: 'e' }, ref.book);
    expect(audit.differences).to.deep.equal([]);
    // a later close leaves the book indexed by its oldest trade, not its newest
    fresh.push(await settle(ref, now));
    const oldest = Math.min(...fresh.map((p) => p.closed_ts!));
    expect(Number(await redis.zscore(keys.tradePruneIndex(ref.accountId), keys.bookClosedByTime(ref.accountId, ref.book)))).to.equal(
      oldest,
    );
  });

  it('the audit racing a prune of the archives reads one snapshot: never a difference', async () => {
    const ref: BookRef = { accountId: 'prunei', book: 'main' };
    for (let r = 0; r < 4; r++) {
      for (let i = 0; i < 8; i++) await settle(ref, NOW - (300 - r * 40 - i) * DAY);
      now = NOW - (290 - r * 40 - 8) * DAY;
      await domain.trading.books.reset(ctx(ref), true);
    }
    now = NOW;
    const reader = new LedgerReader(other);
    let pruning = true;
    const seen: unknown[] = [];
    const audits = (async () => {
      let runs = 0;
      while (pruning || runs === 0) {
        runs += 1;
        seen.push(...(await reader.auditBook({ accountId: ref.accountId, email: 'e' }, ref.book)).differences);
      }
      return runs;
    })();
    // one trade a call: 32 calls, each changing the archives the audit reads
    const run = await prune().run(now, { trades: 1_000, batch: 1, books: 10, slotsPerRead: 16_384 });
    pruning = false;
    expect(await audits).to.be.greaterThan(1);
    expect(run.trades).to.equal(32);
    expect(seen).to.deep.equal([]);
  });

  it('bounded work per run, never a SCAN: a backlog is pruned over several runs, each within its limits', async () => {
    const books: BookRef[] = Array.from({ length: 12 }, (_, i) => ({ accountId: `pruned${i}`, book: 'main' }));
    for (const ref of books) for (let i = 0; i < 5; i++) await settle(ref, now - (91 + i) * DAY);
    for (const ref of books) await settle(ref, now - DAY);
    const commands: string[][] = [];
    const stop = await watchCommands(redis, (args) => commands.push(args));
    const limits: PruneLimits = { trades: 13, batch: 4, books: 100, slotsPerRead: 4_096 };
    const runs = [];
    try {
      for (let i = 0; i < 10; i++) {
        const run = await prune().run(now, limits);
        runs.push(run);
        if (run.complete) break;
      }
    } finally {
      stop();
    }
    expect(runs.slice(0, -1).every((run) => run.trades === limits.trades && !run.complete)).to.equal(true);
    expect(runs.reduce((sum, run) => sum + run.trades, 0)).to.equal(books.length * 5);
    expect(runs.at(-1)!.complete).to.equal(true);
    expect(commands.map((args) => args[0].toLowerCase())).to.not.include.members(['scan', 'keys']);
    for (const ref of books) expect(await redis.hlen(keys.bookClosed(ref.accountId, ref.book))).to.equal(1);
    // one call removes at most its batch
    const ref: BookRef = { accountId: 'prunee', book: 'main' };
    for (let i = 0; i < 7; i++) await settle(ref, now - (100 + i) * DAY);
    expect(await prune().pruneBook(ref, now - RETENTION_DAYS * DAY, 5, 5)).to.deep.equal({ pruned: 5, more: true });
    expect(await redis.hlen(keys.bookClosed(ref.accountId, ref.book))).to.equal(2);
  });

  it('each minute starts at another step of slots, so a backlog does not starve the last slots', async () => {
    // a book in each half of the slots, the first with two trades past the retention, the second one; a run prunes one
    const inHalf = (half: number): BookRef => {
      for (let i = 0; ; i++) {
        const ref = { accountId: `pruneh${half}x${i}`, book: 'main' };
        if (Math.floor(slotOf(keys.bookStats(ref.accountId, ref.book)) / 8_192) === half) return ref;
      }
    };
    const books = [inHalf(0), inHalf(1)];
    for (const ref of [books[0], ...books]) await settle(ref, now - 100 * DAY);
    const limits: PruneLimits = { trades: 1, batch: 1, books: 1, slotsPerRead: 8_192 };
    const left = async () => Promise.all(books.map((ref) => redis.hlen(keys.bookClosed(ref.accountId, ref.book))));
    const minute = Math.floor(now / MIN) * MIN;
    // the first half's run, then the second half's a minute later, though the first half's slots come first
    const even = minute % (2 * MIN) === 0 ? minute : minute + MIN;
    expect(await prune().run(even + 2 * MIN, limits)).to.deep.include({ trades: 1 });
    expect(await left()).to.deep.equal([1, 1]);
    expect(await prune().run(even + 3 * MIN, limits)).to.deep.include({ trades: 1 });
    expect(await left()).to.deep.equal([1, 0]);
    expect(await prune().run(even + 4 * MIN, limits)).to.deep.include({ trades: 1 });
    expect(await left()).to.deep.equal([0, 0]);
  });

  it('runs as a job scheduler of the worker role, on the configured retention', async () => {
    const ref: BookRef = { accountId: 'prunef', book: 'main' };
    now = Date.now();
    const old = await settle(ref, now - 100 * DAY);
    const within = await settle(ref, now - 100 * DAY + 2 * DAY);
    const recent = await settle(ref, now - DAY);
    const config = configWith({ REDIS_URL: testRedisUrl(), TRADE_RETENTION_DAYS: '99' });
    const schedules = SCHEDULES.filter((s) => s.queue === QUEUES.retention);
    expect(schedules.map((s) => s.id)).to.deep.equal(['trades-prune']);
    const role = await startWorkerRole(
      { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) },
      { processors: [tradePruneProcessor], schedules, relay: false },
    );
    try {
      // an every-scheduler's first job runs at once
      await waitFor(async () => !(await redis.hexists(keys.bookClosed(ref.accountId, ref.book), old.id)), 10_000, 'the prune job');
      expect(await storedIds(ref)).to.deep.equal([within.id, recent.id].sort());
    } finally {
      await role.stop();
    }
  });

  it('cli reindex puts books closed before the index existed (or whose entry was lost) in it, at their oldest trade', async () => {
    const ref: BookRef = { accountId: 'pruneg', book: 'main' };
    await redis.set(keys.accountByEmail('g@example.org'), ref.accountId);
    await settle(ref, now - 300 * DAY);
    now -= 200 * DAY;
    await domain.trading.books.reset(ctx(ref), true);
    now = NOW;
    await settle(ref, now - 100 * DAY);
    const kept = await settle(ref, now - DAY);
    await redis.del(keys.tradePruneIndex(ref.accountId));
    expect(await prune().run(now, pruneLimits(20_000))).to.deep.include({ trades: 0, books: 0 });
    expect(await reindexAll(redis)).to.deep.include({ tradeBooks: 1 });
    expect(Number(await redis.zscore(keys.tradePruneIndex(ref.accountId), keys.bookClosedByTime(ref.accountId, ref.book)))).to.equal(
      now - 300 * DAY,
    );
    expect(await prune().run(now, pruneLimits(20_000))).to.deep.include({ trades: 2, books: 1, complete: true });
    expect(await storedIds(ref)).to.deep.equal([kept.id]);
    expect((await new LedgerReader(redis).auditBook({ accountId: ref.accountId, email: 'e' }, ref.book)).differences).to.deep.equal([]);
  });

  it('refuses a retention shorter than the longest window a plan reads', () => {
    expect(() => configWith({ TRADE_RETENTION_DAYS: '89' })).to.throw(/TRADE_RETENTION_DAYS/);
    expect(configWith({}).tradeRetentionDays).to.equal(90);
    expect(configWith({}).tradePrunePerRun).to.equal(20_000);
    expect(() => configWith({ TRADE_PRUNE_PER_RUN: '0' })).to.throw(/TRADE_PRUNE_PER_RUN/);
  });
});
