/**
 * The skill score (0-100): a book's P&L over a window against two baselines built from the same
 * trades (the method is written out in docs/guide/02-trading-model.md, "Report: the skill score"):
 *  - hold: for each symbol, the book's time-weighted exposure in it (notional x holding time / window,
 *    signed by side) held from the window's start to its end, in the trades' direction and against it;
 *  - random: `draws` seeded books that make the same trades (symbol, size, leverage, fee rate, holding
 *    time) with a random entry time in the window and a random side; the percentile of the book's
 *    P&L among them.
 * score = round(0.75 x random percentile + 0.25 x hold percentile). Pure: the trades, the price paths,
 * the window and the seed are passed in.
 */
import { settle } from '../settlement.js';
import { direction, trimNumber, type Side } from '../side.js';

export interface SkillTrade {
  symbol: string;
  side: Side;
  margin: number;
  leverage: number;
  fee_rate_pct: number;
  opened_ts: number;
  closed_ts: number;
  pnl_usd: number;
}

/** A symbol's prices, oldest first: what the market was at each time (candle closes, fills). */
export interface PricePoint {
  t: number;
  price: number;
}

export interface SkillInput {
  trades: readonly SkillTrade[];
  paths: ReadonlyMap<string, readonly PricePoint[]>;
  from: number;
  to: number;
  draws: number;
  seed: string;
}

export interface Skill {
  /** 0-100, null when fewer than SKILL_MIN_N trades could be priced. */
  score: number | null;
  /** The trades the score rests on (those whose symbol has prices over the window). */
  n: number;
  pnl_usd: number;
  hold_with_usd: number | null;
  hold_against_usd: number | null;
  hold_percentile: number | null;
  random_draws: number;
  random_median_usd: number | null;
  random_percentile: number | null;
  method: string;
  note?: string;
}

export const SKILL_MIN_N = 5;
export const SKILL_DRAWS = 200;
const RANDOM_WEIGHT = 0.75;
export const SKILL_METHOD =
  'score = round(0.75 x percentile of the P&L among seeded random books (same trades, random entry time and side) + 0.25 x ' +
  'percentile among the two buy-and-hold books (same symbols and exposure, with and against the trades)); see README';

/** FNV-1a of a string: the seed of a report's draws (the same book, window and day draw the same books). */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The price at t, linear between the path's points; null outside it. */
export function priceAt(path: readonly PricePoint[], t: number): number | null {
  if (path.length === 0 || t < path[0].t || t > path[path.length - 1].t) return null;
  let lo = 0;
  let hi = path.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (path[mid].t <= t) lo = mid;
    else hi = mid;
  }
  const a = path[lo];
  const b = path[hi];
  if (b.t === a.t) return b.price;
  return a.price + ((b.price - a.price) * (t - a.t)) / (b.t - a.t);
}

/**
 * Where `value` stands among `others`, 0-100: the share below it, ties counting half.
 * Worked example: 5 among [1, 5, 7, 9] -> (1 + 0.5) / 4 = 37.5.
 */
export function percentileOf(value: number, others: readonly number[]): number {
  if (others.length === 0) return 50;
  let below = 0;
  for (const other of others) below += other < value ? 1 : other === value ? 0.5 : 0;
  return trimNumber((below / others.length) * 100);
}

/** P&L of one trade entered at `entry` and left at `exit`: its notional at entry, its fee rate, floored at minus its margin. */
function tradePnl(trade: SkillTrade, side: Side, entry: number, exit: number): number {
  const qty = (trade.margin * trade.leverage) / entry;
  return settle({ side, qty, entry, exit, ratePct: trade.fee_rate_pct, fundingUsd: 0, margin: trade.margin }).pnl;
}

/**
 * The two buy-and-hold books. Worked example: window of 10 days, one long of 1000 USD notional held
 * 5 days and one short of 1000 held 1 day on a symbol going 100 -> 110: signed exposure
 * (1000 x 5 - 1000 x 1) / 10 = 400 USD long, held the window: +40 gross; against: -40 gross (fees apart).
 */
export function holdBaselines(
  trades: readonly SkillTrade[],
  paths: ReadonlyMap<string, readonly PricePoint[]>,
  from: number,
  to: number,
): { with: number; against: number } {
  const span = Math.max(1, to - from);
  const exposure = new Map<string, { signed: number; rate: number }>();
  for (const trade of trades) {
    const held = Math.min(span, Math.max(0, trade.closed_ts - trade.opened_ts));
    const notional = trade.margin * trade.leverage;
    const prior = exposure.get(trade.symbol) ?? { signed: 0, rate: 0 };
    prior.signed += (direction(trade.side) * notional * held) / span;
    prior.rate = Math.max(prior.rate, trade.fee_rate_pct);
    exposure.set(trade.symbol, prior);
  }
  let withTrades = 0;
  let against = 0;
  for (const [symbol, { signed, rate }] of exposure) {
    const path = paths.get(symbol) ?? [];
    const start = priceAt(path, Math.max(from, path[0]?.t ?? from));
    const end = priceAt(path, Math.min(to, path[path.length - 1]?.t ?? to));
    if (start === null || end === null || signed === 0) continue;
    const gross = signed * (end / start - 1);
    const fees = Math.abs(signed) * (1 + end / start) * (rate / 100);
    withTrades += gross - fees;
    against += -gross - fees;
  }
  return { with: withTrades, against };
}

/** One random book: each trade at a random time of the window (its holding time kept) on a random side. */
function randomBook(trades: readonly SkillTrade[], paths: ReadonlyMap<string, readonly PricePoint[]>, random: () => number): number {
  let total = 0;
  for (const trade of trades) {
    const path = paths.get(trade.symbol)!;
    const first = path[0].t;
    const last = path[path.length - 1].t;
    const held = Math.max(0, trade.closed_ts - trade.opened_ts);
    const latest = Math.max(first, last - held);
    const start = first + random() * (latest - first);
    const side: Side = random() < 0.5 ? 'long' : 'short';
    const entry = priceAt(path, start)!;
    const exit = priceAt(path, Math.min(last, start + held))!;
    total += tradePnl(trade, side, entry, exit);
  }
  return total;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

export function skillScore(input: SkillInput): Skill {
  const { paths, from, to } = input;
  // a trade counts when its symbol's path covers the window it could be drawn in
  const priced = input.trades.filter((t) => (paths.get(t.symbol)?.length ?? 0) >= 2);
  const pnl = priced.reduce((sum, t) => sum + t.pnl_usd, 0);
  const base = { n: priced.length, pnl_usd: round2(pnl), random_draws: 0, method: SKILL_METHOD };
  if (priced.length < SKILL_MIN_N) {
    return {
      ...base,
      score: null,
      hold_with_usd: null,
      hold_against_usd: null,
      hold_percentile: null,
      random_median_usd: null,
      random_percentile: null,
      note: `${priced.length} priced trade${priced.length === 1 ? '' : 's'}: too few for a score (${SKILL_MIN_N} needed)`,
    };
  }
  const hold = holdBaselines(priced, paths, from, to);
  const random = seededRandom(seedOf(input.seed));
  const books = Array.from({ length: input.draws }, () => randomBook(priced, paths, random)).sort((a, b) => a - b);
  const randomPct = percentileOf(pnl, books);
  const holdPct = percentileOf(pnl, [hold.with, hold.against]);
  return {
    ...base,
    score: Math.round(RANDOM_WEIGHT * randomPct + (1 - RANDOM_WEIGHT) * holdPct),
    hold_with_usd: round2(hold.with),
    hold_against_usd: round2(hold.against),
    hold_percentile: holdPct,
    random_draws: books.length,
    random_median_usd: round2(books[Math.floor(books.length / 2)]),
    random_percentile: randomPct,
  };
}
