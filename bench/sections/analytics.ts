/**
 * Analytics benchmarks: GET /equity and GET /report (defaults: 30 days) through HTTP on one API
 * process at saturation, for a book of 1,000 closed trades and one of 10,000, measured in
 * interleaved rounds with bare Express so each row reads as a ratio to it. The books are written
 * straight through the position scripts (open, then the close at a chosen time, 30 days back to
 * now), so their curves and day buckets are what settlement writes. Each book's account has 100
 * keys (the Business maximum) the requests rotate through, so no key's per-minute budget trips.
 * The skill score is cached per book (analytics-service.ts); one report per book warms it first,
 * and the rows measure what a client polling its report gets.
 */
import autocannon from 'autocannon';
import { priceOpen } from '../../shared/engine/open-pricing.js';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { computeClose } from '../../shared/engine/close-record.js';
import { closeWrite } from '../../shared/paper/positions/close-service.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { median } from '../lib/harness.js';

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT', 'ADAUSDT', 'AVAXUSDT'];
const DAY_MS = 86_400_000;
const BATCH = 500;

export interface AnalyticsBenchOptions {
  redisUrl: string;
  apiUrl: string;
  bareExpressUrl: string;
  connections: number;
  seconds: number;
  rounds: number;
  /** Closed trades of the two books. */
  books: readonly number[];
}

export interface AnalyticsRow {
  name: string;
  trades: number | null;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

/** One request at a time with the book's cached answers dropped before each: what computing them costs. */
export interface ColdRow {
  name: string;
  trades: number;
  medianMs: number;
  maxMs: number;
}

export interface AnalyticsResults {
  rows: AnalyticsRow[];
  cold: ColdRow[];
}

const COLD_REQUESTS = 15;

/** The median and worst time of COLD_REQUESTS sequential GETs, each after the book's read caches (curve, report, skill) were dropped. */
async function coldTimes(redisUrl: string, apiUrl: string, book: Book, path: string): Promise<{ medianMs: number; maxMs: number }> {
  const redis = createRedis(redisUrl);
  try {
    const times: number[] = [];
    for (let i = 0; i < COLD_REQUESTS; i += 1) {
      // the names analytics-service.ts caches a default request's answers under (30 days, a Business key)
      await redis.del(
        ...['curve:30:240', 'report:30:business', 'skill:30'].map((what) => keys.bookReadCache(book.accountId, 'main', what)),
      );
      const started = performance.now();
      const r = await fetch(`${apiUrl}${path}`, { headers: { 'x-api-key': book.keys[i % book.keys.length] } });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`bench analytics: ${path} answered ${r.status}`);
      times.push(performance.now() - started);
    }
    return { medianMs: Number(median(times).toFixed(1)), maxMs: Number(Math.max(...times).toFixed(1)) };
  } finally {
    await closeRedis(redis);
  }
}

export interface Book {
  trades: number;
  accountId: string;
  keys: string[];
}

/** A book of `trades` closed trades over the last 30 days, with the account's 100 keys. */
export async function seedBook(redisUrl: string, trades: number): Promise<Book> {
  const redis = createRedis(redisUrl);
  try {
    const { service } = createAccountServices({ redis });
    const email = `bench-analytics-${trades}-${Date.now().toString(36)}@example.org`;
    const keys: string[] = [];
    let accountId = '';
    for (let k = 0; k < 100; k += 1) {
      const created = await service.createKey({ email, plan: 'business' });
      keys.push(created.apiKey);
      accountId = created.account.id;
    }
    const ref: BookRef = { accountId, book: 'main' };
    const store = new PositionStore(redis);
    const now = Date.now();
    for (let start = 0; start < trades; start += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, trades - start) }, (_, j) => benchTrade(ref, start + j, trades, now));
      const opened = await Promise.all(batch.map(({ position }) => store.open(ref, position, 1_000_000)));
      if (opened.some((o) => o.kind !== 'opened')) throw new Error('bench analytics: a seeded open failed');
      const reads = await Promise.all(batch.map(({ position }) => store.getOpen(ref, position.id)));
      const writes = batch.map(({ exit, closedTs }, j) =>
        closeWrite(ref, reads[j]!, computeClose(reads[j]!.position, exit, 100, 0, closedTs, 'manual'), null, 'position.closed'),
      );
      const outcomes = await store.closeMany(writes);
      if (outcomes.some((o) => o.kind !== 'closed')) throw new Error('bench analytics: a seeded close failed');
    }
    return { trades, accountId, keys };
  } finally {
    await closeRedis(redis);
  }
}

/** Trade i of n: spread evenly over the 30 days before now, 1 to 90 minutes long, up or down by up to 2%. */
function benchTrade(ref: BookRef, i: number, n: number, now: number): { position: Position; exit: number; closedTs: number } {
  const symbol = SYMBOLS[i % SYMBOLS.length];
  const side = i % 3 === 0 ? 'short' : 'long';
  const entry = 100 + (i % 17);
  const leverage = [2, 5, 10, 20, 50, 100][i % 6];
  const closedTs = now - Math.floor(((n - i) / n) * 29.5 * DAY_MS);
  const openedTs = closedTs - (1 + (i % 90)) * 60_000;
  const priced = priceOpen({ side, entry, margin: 100, leverage, baseRatePct: 0.055 });
  const position: Position = {
    id: `bpbench${i.toString(36)}x${n}`,
    v: 1,
    account: ref.book,
    symbol,
    asset_class: 'crypto',
    side,
    status: 'open',
    entry,
    qty: priced.qty,
    margin: 100,
    leverage,
    notional_usd: priced.notional,
    liq_price: Number(priced.liqPrice.toPrecision(12)),
    mmr_pct: priced.mmrPct,
    sl: null,
    tp: null,
    trail_pct: null,
    trail_hwm: null,
    fee_rate_pct: priced.ratePct,
    fee_venue: null,
    fee_open_usd: priced.feeOpen,
    fee_round_trip_usd: priced.feeRoundTrip,
    opened_ts: openedTs,
    client_order_id: null,
    source: 'api',
    funding_carry_usd: 0,
    funding_from_ts: openedTs,
  };
  const move = (((i * 7919) % 401) - 200) / 10_000;
  return { position, exit: Number((entry * (1 + move)).toPrecision(10)), closedTs };
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** `seconds` of GETs as fast as answered, each request with the next key of the book (none for the baseline). */
async function run(url: string, path: string, keys: readonly string[], connections: number, seconds: number): Promise<Run> {
  let k = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (req) => (keys.length === 0 ? req : { ...req, headers: { 'x-api-key': keys[k++ % keys.length] } }),
      },
    ],
  });
  return { rps: result['2xx'] / seconds, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

export async function measureAnalytics(options: AnalyticsBenchOptions): Promise<AnalyticsResults> {
  const books: Book[] = [];
  for (const trades of options.books) books.push(await seedBook(options.redisUrl, trades));
  const targets: { name: string; trades: number | null; url: string; path: string; keys: readonly string[] }[] = [
    { name: 'bare express', trades: null, url: options.bareExpressUrl, path: '/', keys: [] },
    ...books.flatMap((book) => [
      { name: 'GET /api/bot/v1/equity', trades: book.trades, url: options.apiUrl, path: '/api/bot/v1/equity', keys: book.keys },
      { name: 'GET /api/bot/v1/report', trades: book.trades, url: options.apiUrl, path: '/api/bot/v1/report', keys: book.keys },
    ]),
  ];
  // warm-up: the skill score of each book is computed (and cached) here, and the JIT settles
  for (const t of targets) await run(t.url, t.path, t.keys, options.connections, 1);
  const runs = targets.map(() => [] as Run[]);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [i, t] of targets.entries()) runs[i].push(await run(t.url, t.path, t.keys, options.connections, options.seconds));
  }
  const rows = targets.map((t, i) => ({
    name: t.name,
    trades: t.trades,
    requestsPerSecond: median(runs[i].map((r) => r.rps)),
    p50Ms: median(runs[i].map((r) => r.p50)),
    p99Ms: median(runs[i].map((r) => r.p99)),
    non2xx: runs[i].reduce((sum, r) => sum + r.non2xx, 0),
  }));
  const cold: ColdRow[] = [];
  for (const book of books) {
    for (const path of ['/api/bot/v1/equity', '/api/bot/v1/report']) {
      cold.push({ name: `GET ${path}`, trades: book.trades, ...(await coldTimes(options.redisUrl, options.apiUrl, book, path)) });
    }
  }
  return { rows, cold };
}

export function analyticsTable({ rows, cold }: AnalyticsResults): string {
  const express = rows.find((row) => row.name === 'bare express');
  const coldTable = [
    `| cold request (the book's cached curve, report and skill score dropped first; ${COLD_REQUESTS} in a row) | closed trades in the book | median ms | max ms |`,
    '|---|---:|---:|---:|',
    ...cold.map((row) => `| ${row.name} | ${row.trades} | ${row.medianMs} | ${row.maxMs} |`),
  ].join('\n');
  return [
    '| analytics target | closed trades in the book | req/s | p50 ms | p99 ms | vs bare express (same rounds) | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.trades ?? ''} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms} | ${row.p99Ms} | ${express ? (row.requestsPerSecond / express.requestsPerSecond).toFixed(2) : '-'} | ${row.non2xx} |`,
    ),
    '',
    coldTable,
  ].join('\n');
}
