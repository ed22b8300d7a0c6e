/**
 * The arena at scale, on a private Redis:
 * - rollup: one season seeded directly as the relay leaves it (100,000 books x 100 closes =
 *   10,000,000 closes: the arena stores no close, only each book's sums and the ranking of the
 *   books with 5 closes or more), the 100 books shown holding 5 open positions each at mark; the
 *   rollup (the top of the ranking, the rows' tallies and open positions, the board stored) timed in
 *   rounds. The same 100,000 books claiming 10 closes each (1,000,000), and 10,000 books x 1,000
 *   closes (10,000,000), show that its cost follows neither the closes nor the books.
 * - settlement: what counting costs the outbox relay, the settlement path's only arena step: the
 *   same outboxes of close entries drained by the real relay with the arena's recorder and with a
 *   stand-in that counts nothing, in interleaved rounds.
 */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { ARENA_ROWS } from '../../shared/arena/arena-rollup.js';
import type { CloseCounter } from '../../shared/arena/arena-recorder.js';
import { bookMember } from '../../shared/arena/arena-store.js';
import { MIN_CLOSES } from '../../shared/engine/arena-stats.js';
import { systemClock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { createDomain, type Domain } from '../../shared/domain.js';
import { seasonExpiresAt, seasonOf } from '../../shared/engine/arena-season.js';
import { MarketWriter } from '../../shared/market/market-writer.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { startEmbeddedRedis } from '../../shared/redis/embedded.js';
import { keys } from '../../shared/redis/keys.js';
import { OutboxStore } from '../../shared/push/outbox-store.js';
import { startOutboxRelay } from '../../workers/start-outbox-relay.js';
import { median } from '../lib/harness.js';
import { seedSweepData } from '../lib/sweep-data.js';

export interface RollupRow {
  books: number;
  closesPerBook: number;
  /** Median of the rounds, ms, and each round. */
  medianMs: number;
  runs: number[];
  seedSeconds: number;
}

export interface ArenaBenchSummary {
  rollups: RollupRow[];
  rows: number;
  openPerRow: number;
  /** Outbox drain: accounts x close entries each, median ms with and without counting, and the runs. */
  drain: { accounts: number; perAccount: number; withMs: number; withoutMs: number; withRuns: number[]; withoutRuns: number[] };
  /** The recorder alone on the same entries (one call per account's batch, as the relay makes it), median ms. */
  recorderMs: number;
  recorderRuns: number[];
}

const OPEN_PER_ROW = 5;

async function flushPipeline(pipeline: ReturnType<RedisClient['pipeline']>): Promise<void> {
  for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
}

/**
 * Seeds one season as the relay leaves it: each book's packed tally (arena-close.lua's format: last entry id, closes, wins, P&L
 * cents, ROE sum, liquidations, slippage, tiered) and the ranking of the books with enough closes. The books of `ids` (those with
 * open positions) hold the best P&L, so they are the rows shown.
 */
async function seedTallies(
  redis: RedisClient,
  season: number,
  books: number,
  closesPerBook: number,
  ids: readonly string[],
): Promise<void> {
  const key = keys.arenaTallies(season);
  const ranking = keys.arenaRanking(season);
  await redis.del(key, ranking);
  for (let from = 0; from < books; from += 5_000) {
    const pipeline = redis.pipeline();
    const fields: string[] = [];
    const scores: (string | number)[] = [];
    for (let i = from; i < Math.min(books, from + 5_000); i++) {
      // the books with open positions hold the best P&L, so they are the rows shown
      const member = i < ids.length ? bookMember(ids[i], 'main') : bookMember(`acc_tally${i.toString(36).padStart(11, '0')}`, 'main');
      const pnlCents = i < ids.length ? 100_000_000 - i : ((i * 7919) % 2_000_001) - 1_000_000;
      fields.push(member, `${1_700_000_000_000 + i}-0,${closesPerBook},${closesPerBook >> 1},${pnlCents},${i % 5000},${i % 3},0,0`);
      if (closesPerBook >= MIN_CLOSES) scores.push(pnlCents, member);
    }
    pipeline.hset(key, ...fields);
    if (scores.length > 0) pipeline.zadd(ranking, ...scores);
    await flushPipeline(pipeline);
  }
  await redis.pexpireat(key, seasonExpiresAt(season));
  await redis.pexpireat(ranking, seasonExpiresAt(season));
}

async function timeRollups(domain: Domain, season: number, rounds: number): Promise<number[]> {
  // one untimed run first: code not yet compiled
  await domain.arena.rollup.rank(season, Date.now());
  const runs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    await domain.arena.rollup.rank(season, Date.now());
    runs.push(performance.now() - started);
  }
  return runs;
}

/** A closed record as position-close.lua appends it (the fields the relay's views read). */
function closedRecord(id: string, closedTs: number, pnl: number): string {
  return JSON.stringify({
    id,
    v: 2,
    account: 'main',
    symbol: 'BTCUSDT',
    asset_class: 'crypto',
    side: 'long',
    status: 'closed',
    entry: 60000,
    qty: 0.016666666667,
    margin: 100,
    leverage: 10,
    notional_usd: 1000,
    liq_price: 54300,
    mmr_pct: 0.5,
    sl: null,
    tp: null,
    trail_pct: null,
    trail_hwm: null,
    fee_rate_pct: 0.055,
    fee_venue: null,
    fee_open_usd: 0.55,
    fee_round_trip_usd: 1.11,
    opened_ts: closedTs - 60_000,
    client_order_id: null,
    source: 'api',
    funding_carry_usd: 0,
    funding_from_ts: closedTs - 60_000,
    exit: 61000,
    closed_ts: closedTs,
    close_reason: 'manual',
    liquidated: false,
    pnl_usd: pnl,
    roe_pct: pnl,
    fees_usd: 1.11,
    funding_usd: 0,
  });
}

async function seedOutboxes(redis: RedisClient, accounts: readonly string[], perAccount: number): Promise<void> {
  const now = Date.now();
  for (const accountId of accounts) {
    const pipeline = redis.pipeline();
    for (let k = 0; k < perAccount; k++) {
      const id = `bp${k}${accountId}`;
      pipeline.xadd(
        keys.accountOutbox(accountId),
        '*',
        'event',
        'position.closed',
        'book',
        'main',
        'ts',
        String(now),
        'position',
        closedRecord(id, now, (k % 7) - 3),
      );
    }
    // as the scripts that append do (lua/includes/outbox-appended.lua): the relay's pass finds the outbox in the index
    pipeline.sadd(keys.outboxIndex(accountId), keys.accountOutbox(accountId));
    await flushPipeline(pipeline);
  }
}

/** The real relay (the worker role's) drains every outbox; ms from its start until all are empty. */
async function timeDrain(
  redis: RedisClient,
  redisUrl: string,
  domain: Domain,
  accounts: readonly string[],
  counter: CloseCounter,
): Promise<number> {
  const config = configWith({ REDIS_URL: redisUrl, RELAY_SCAN_MS: '100' });
  const started = performance.now();
  const relay = await startOutboxRelay(
    { config, redisUrl, redis, logger: createLogger(config) },
    { ...domain, arena: { ...domain.arena, recorder: counter } },
  );
  try {
    for (;;) {
      const pipeline = redis.pipeline();
      for (const accountId of accounts) pipeline.xlen(keys.accountOutbox(accountId));
      const lengths = ((await pipeline.exec()) ?? []).map(([, length]) => Number(length));
      if (lengths.every((length) => length === 0)) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await relay.stop();
  }
}

/** The arena's step of the relay alone: every account's entries read as the relay reads them, then counted; ms for the counting. */
async function timeRecorder(redis: RedisClient, domain: Domain, accounts: readonly string[]): Promise<number> {
  const store = new OutboxStore(redis);
  const batches = await Promise.all(accounts.map((accountId) => store.head(accountId, 200)));
  const started = performance.now();
  for (const [i, accountId] of accounts.entries()) await domain.arena.recorder.record(accountId, batches[i]);
  return performance.now() - started;
}

export async function measureArena(options: { rounds: number; books: number; closesPerBook: number }): Promise<ArenaBenchSummary> {
  const server = await startEmbeddedRedis();
  const redis = createRedis(server.url);
  try {
    const config = configWith({ REDIS_URL: server.url });
    const domain = createDomain({ config, redis, clock: systemClock });
    const season = seasonOf(Date.now());
    // the books shown hold open positions (sweep-data's books acc_bench…, 5 each over 50 symbols) with prices to mark them at
    const open = await seedSweepData(redis, {
      total: ARENA_ROWS * OPEN_PER_ROW,
      symbolCount: 50,
      perBook: OPEN_PER_ROW,
      minute: Date.now(),
    });
    const writer = new MarketWriter({
      redis,
      logger: createLogger(config),
      clock: systemClock,
      priceFreshMs: config.priceFreshMs,
      flushIntervalMs: 1_000_000,
      onFirstClose: async () => undefined,
    });
    writer.setUniverse(new Set(open.symbols));
    writer.recordTicks(open.symbols.map((symbol, i) => ({ venue: 'binance' as const, symbol, price: 5 + i * 1.4, ts: Date.now() })));
    await writer.flush();
    const shownIds = open.books.map((b) => b.accountId);

    const rollups: RollupRow[] = [];
    for (const [books, closesPerBook] of [
      [options.books, options.closesPerBook],
      [options.books, options.closesPerBook / 10],
      [options.books / 10, options.closesPerBook * 10],
    ]) {
      const seeded = performance.now();
      await seedTallies(redis, season, books, closesPerBook, shownIds);
      const seedSeconds = (performance.now() - seeded) / 1000;
      const runs = await timeRollups(domain, season, options.rounds);
      rollups.push({ books, closesPerBook, medianMs: median(runs), runs, seedSeconds });
    }

    // the settlement side: 1,000 accounts x 100 close entries, drained with and without counting them, interleaved
    const accounts = Array.from({ length: 1_000 }, (_, i) => `acc_drain${i.toString(36).padStart(11, '0')}`);
    const perAccount = 100;
    const nothing: CloseCounter = { record: async () => undefined };
    const withRuns: number[] = [];
    const withoutRuns: number[] = [];
    const recorderRuns: number[] = [];
    for (let r = 0; r < options.rounds; r++) {
      await seedOutboxes(redis, accounts, perAccount);
      recorderRuns.push(await timeRecorder(redis, domain, accounts));
      await Promise.all(accounts.map((accountId) => redis.del(keys.accountOutbox(accountId))));
      for (const [counter, runs] of [
        [domain.arena.recorder, withRuns],
        [nothing, withoutRuns],
      ] as const) {
        await seedOutboxes(redis, accounts, perAccount);
        runs.push(await timeDrain(redis, server.url, domain, accounts, counter));
      }
    }
    return {
      rollups,
      rows: ARENA_ROWS,
      openPerRow: OPEN_PER_ROW,
      drain: { accounts: accounts.length, perAccount, withMs: median(withRuns), withoutMs: median(withoutRuns), withRuns, withoutRuns },
      recorderMs: median(recorderRuns),
      recorderRuns,
    };
  } finally {
    await closeRedis(redis);
    await server.stop();
  }
}

export function arenaTable(s: ArenaBenchSummary): string {
  const n = (value: number): string => value.toLocaleString('en-US');
  const ms = (value: number): string => value.toFixed(0);
  const { drain } = s;
  const entries = drain.accounts * drain.perAccount;
  return [
    `| arena rollup (median of ${s.rollups[0]?.runs.length ?? 0}; ${s.rows} rows shown, ${s.openPerRow} open positions each at mark) | books | closes in the season | rollup ms | runs ms | seeding s |`,
    '|---|---:|---:|---:|---:|---:|',
    ...s.rollups.map(
      (r) =>
        `| ${n(r.books)} books x ${n(r.closesPerBook)} closes | ${n(r.books)} | ${n(r.books * r.closesPerBook)} | ${ms(r.medianMs)} | ${r.runs.map(ms).join(', ')} | ${r.seedSeconds.toFixed(1)} |`,
    ),
    '',
    `| outbox relay: ${n(drain.accounts)} accounts x ${drain.perAccount} close entries (median) | drain ms | µs per close | runs ms |`,
    '|---|---:|---:|---:|',
    `| counted in the arena | ${ms(drain.withMs)} | ${((drain.withMs * 1000) / entries).toFixed(1)} | ${drain.withRuns.map(ms).join(', ')} |`,
    `| not counted (stand-in) | ${ms(drain.withoutMs)} | ${((drain.withoutMs * 1000) / entries).toFixed(1)} | ${drain.withoutRuns.map(ms).join(', ')} |`,
    `| the arena's step alone (recorder, one call per account's batch) | ${ms(s.recorderMs)} | ${((s.recorderMs * 1000) / entries).toFixed(1)} | ${s.recorderRuns.map(ms).join(', ')} |`,
  ].join('\n');
}
