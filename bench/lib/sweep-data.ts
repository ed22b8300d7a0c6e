/**
 * The sweep benchmark's data: open positions as the open script stores them (position JSON in each
 * book's open hash, members in the per-symbol trigger indexes), written with pipelines, and the
 * closed candles of one minute (and of the minute before, kept as the feed keeps it). Deterministic: the same seed gives the same book.
 *
 * Every symbol has an anchor price. Its candle is [0.995, 1.005] x anchor. One position in a
 * hundred has a level inside that range (a stop, a target, or a 200x liquidation price), every
 * other one keeps its levels at least 1.5% away, so exactly 1% of the positions trigger.
 */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { CLASS_TAKER_PCT } from '../../shared/engine/fees.js';
import { priceOpen } from '../../shared/engine/open-pricing.js';
import { trimNumber, type Side } from '../../shared/engine/side.js';
import { triggerMember, type BookRef, type Position } from '../../shared/paper/positions/position-types.js';
import { TRIGGER_KINDS, triggerLevels } from '../../shared/paper/positions/trigger-hints.js';
import type { SweepJob } from '../../shared/queues/job-types.js';
import { keys } from '../../shared/redis/keys.js';

const MINUTE_MS = 60_000;

export interface SweepData {
  symbols: string[];
  /** Positions per book (one book per account). */
  perBook: number;
  books: BookRef[];
  /** The positions this minute's candles trigger, as stored, to put back after a run. */
  triggered: { ref: BookRef; position: Position; raw: string }[];
  candles: SweepJob[];
  total: number;
}

/** mulberry32: a small seeded generator, so every run builds the same positions. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LEVERAGES = [2, 3, 5, 10, 20, 25, 50];

function position(
  id: string,
  book: string,
  symbol: string,
  side: Side,
  entry: number,
  leverage: number,
  opened: number,
  sl: number | null,
  tp: number | null,
): Position {
  const margin = 100;
  const priced = priceOpen({ side, entry, margin, leverage, baseRatePct: CLASS_TAKER_PCT.crypto });
  return {
    id,
    v: 1,
    account: book,
    symbol,
    asset_class: 'crypto',
    side,
    status: 'open',
    entry,
    qty: priced.qty,
    margin,
    leverage,
    notional_usd: margin * leverage,
    liq_price: trimNumber(priced.liqPrice),
    mmr_pct: trimNumber(priced.mmrPct),
    sl: sl === null ? null : trimNumber(sl),
    tp: tp === null ? null : trimNumber(tp),
    trail_pct: null,
    trail_hwm: null,
    fee_rate_pct: trimNumber(priced.ratePct),
    fee_venue: null,
    fee_open_usd: trimNumber(priced.feeOpen),
    fee_round_trip_usd: trimNumber(priced.feeRoundTrip),
    opened_ts: opened,
    client_order_id: null,
    source: 'api',
    funding_carry_usd: 0,
    funding_from_ts: opened,
    levels_ts: opened,
  };
}

/** Index entries of a position, as an open leaves them: [key, score, member]. */
function indexEntries(ref: BookRef, p: Position): [string, number, string][] {
  const member = triggerMember(ref, p.id);
  const levels = triggerLevels(p);
  return TRIGGER_KINDS.flatMap((kind): [string, number, string][] => {
    const level = levels[kind];
    return level === null ? [] : [[keys.triggerIndex(p.symbol, kind, p.side), level, member]];
  });
}

/** A position that this minute's candle triggers: a level within 0.3% of the anchor. */
function triggering(kind: number, id: string, book: string, symbol: string, anchor: number, opened: number): Position {
  if (kind < 3) return position(id, book, symbol, 'long', anchor, 10, opened, anchor * 0.997, null);
  if (kind < 5) return position(id, book, symbol, 'short', anchor, 10, opened, anchor * 1.003, null);
  if (kind < 6) return position(id, book, symbol, 'long', anchor, 10, opened, null, anchor * 1.003);
  if (kind < 7) return position(id, book, symbol, 'short', anchor, 10, opened, null, anchor * 0.997);
  // 200x: the maintenance margin is capped at half the initial margin, the liquidation price 0.25% away
  return position(id, book, symbol, kind < 9 ? 'long' : 'short', anchor, 200, opened, null, null);
}

/** A position this minute leaves alone: entry within 0.5% of the anchor, every level 1.5% or more away. */
function quiet(next: () => number, id: string, book: string, symbol: string, anchor: number, opened: number): Position {
  const side: Side = next() < 0.5 ? 'long' : 'short';
  const dir = side === 'long' ? 1 : -1;
  const entry = trimNumber(anchor * (1 + (next() - 0.5) * 0.01));
  const leverage = LEVERAGES[Math.floor(next() * LEVERAGES.length)];
  const sl = next() < 0.7 ? entry * (1 - dir * (0.02 + next() * 0.08)) : null;
  const tp = next() < 0.6 ? entry * (1 + dir * (0.02 + next() * 0.18)) : null;
  return position(id, book, symbol, side, entry, leverage, opened, sl, tp);
}

/** Writes `total` open positions over `symbolCount` symbols and `perBook` per book; 1% trigger on the candles returned. */
export async function seedSweepData(
  redis: RedisClient,
  opts: { total: number; symbolCount: number; perBook: number; minute: number },
): Promise<SweepData> {
  const next = rng(20260916);
  const symbols = Array.from({ length: opts.symbolCount }, (_, i) => `B${i}USDT`);
  const anchors = symbols.map((_, i) => trimNumber(5 + i * 1.37));
  const opened = opts.minute - 3_600_000;
  const bookCount = Math.ceil(opts.total / opts.perBook);
  const books: BookRef[] = Array.from({ length: bookCount }, (_, i) => ({
    accountId: `acc_bench${i.toString(36).padStart(11, '0')}`,
    book: 'main',
  }));
  const triggered: SweepData['triggered'] = [];
  const index = new Map<string, (string | number)[]>();
  let pipeline = redis.pipeline();
  const flush = async (): Promise<void> => {
    const replies = (await pipeline.exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    pipeline = redis.pipeline();
  };
  let n = 0;
  for (const ref of books) {
    const fields: string[] = [];
    for (let k = 0; k < opts.perBook && n < opts.total; k++, n++) {
      const s = n % symbols.length;
      const id = `bp${n.toString(36).padStart(8, '0')}bench`;
      const p =
        n % 100 === 0
          ? triggering((n / 100) % 10, id, ref.book, symbols[s], anchors[s], opened)
          : quiet(next, id, ref.book, symbols[s], anchors[s], opened);
      const raw = JSON.stringify(p);
      fields.push(p.id, raw);
      if (n % 100 === 0) triggered.push({ ref, position: p, raw });
      for (const [key, score, member] of indexEntries(ref, p)) {
        let entries = index.get(key);
        if (!entries) index.set(key, (entries = []));
        entries.push(score, member);
      }
    }
    pipeline.hset(keys.bookOpen(ref.accountId, ref.book), ...fields);
    pipeline.sadd(keys.paperBooks(ref.accountId), ref.book);
    if (pipeline.length >= 400) await flush();
  }
  for (const [key, entries] of index) {
    for (let i = 0; i < entries.length; i += 2_000) pipeline.zadd(key, ...entries.slice(i, i + 2_000));
    if (pipeline.length >= 200) await flush();
  }
  const candles = symbols.map((symbol, i) => ({
    symbol,
    minute: opts.minute,
    open: anchors[i],
    high: trimNumber(anchors[i] * 1.005),
    low: trimNumber(anchors[i] * 0.995),
    close: anchors[i],
  }));
  // the minute before, as the feed keeps it: each sweep job looks for that minute's job (minute-order.ts)
  for (const c of candles)
    pipeline.zadd(keys.marketCandles1m(c.symbol), c.minute - MINUTE_MS, JSON.stringify({ ...c, minute: c.minute - MINUTE_MS }));
  await flush();
  return { symbols, perBook: opts.perBook, books, triggered, candles, total: n };
}

/** Puts the triggered positions back as they were before a run settled them (open, indexed, no closed record). */
export async function restoreTriggered(redis: RedisClient, data: SweepData): Promise<void> {
  const pipeline = redis.pipeline();
  for (const { ref, position, raw } of data.triggered) {
    pipeline.hset(keys.bookOpen(ref.accountId, ref.book), position.id, raw);
    pipeline.hdel(keys.bookClosed(ref.accountId, ref.book), position.id);
    pipeline.zrem(keys.bookClosedByTime(ref.accountId, ref.book), position.id);
    for (const [key, score, member] of indexEntries(ref, position)) pipeline.zadd(key, score, member);
  }
  const replies = (await pipeline.exec()) ?? [];
  for (const [error] of replies) if (error) throw error;
}
