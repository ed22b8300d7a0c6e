/**
 * The ledger audit: a book's money recomputed from its trade ledger (the closed positions and closed parts
 * since its last reset) and compared with the counters the money-moving scripts keep. Pure.
 *
 * What the scripts do (position-close.lua, book-reset.lua): each close adds its realized cents (the closed
 * record's pnl_usd, stored as cents / 100) to realized_cents, counts a win when the cents are > 0 and a loss
 * otherwise, counts a liquidation when the record is liquidated, and keeps the best cents; a reset archives the
 * closed records and sets the counters back to zero with the starting balance. Opens, fees and funding move no
 * counter: fees and funding are settled into the close's cents, and margin is not taken from the balance (the
 * balance is a scorecard, margin_enforced false), so balance = starting balance + realized P&L. The life_* counters
 * are never reset: they also count the closes every reset archived. Trades past the retention are gone from the ledger
 * (trades-prune.lua) and added back from their compact counters (PrunedTrades).
 */
import { toCents } from '../../engine/side.js';
import type { BookCounters } from '../positions/book-counters.js';

/** The starting balance of every book, USD (position-reads.ts STARTING_BALANCE_USD; a reset stores it again). */
export const AUDIT_STARTING_BALANCE_USD = 10_000;

/** The fields the audit checks, in the order they are reported: the balance (starting balance + realized) and the counters. */
export const AUDIT_FIELDS = [
  'balance_cents',
  'realized_cents',
  'closed',
  'wins',
  'losses',
  'liquidations',
  'best_cents',
  'life_realized_cents',
  'life_closed',
  'life_wins',
  'life_losses',
] as const;

export type AuditField = (typeof AUDIT_FIELDS)[number];

/** The counters of a book as stored (its stats hash), the fields the audit checks. */
export type StoredBookMoney = Pick<BookCounters, 'starting_balance' | Exclude<AuditField, 'balance_cents'>>;

/** What the audit reads of one closed record. */
export interface LedgerTrade {
  pnl_usd: number;
  liquidated?: boolean;
}

export interface AuditDifference {
  field: AuditField;
  stored: number | null;
  recomputed: number | null;
}

export type BookMoney = Record<AuditField, number | null>;

/** A closed record's realized cents, as position-close.lua was given them (pnl_usd is cents / 100). */
export const tradeCents = (trade: LedgerTrade): number => toCents(trade.pnl_usd);

/** Closed trades summed: what the audit compares, and the compact form the retention keeps of pruned ones. */
export interface Tally {
  closed: number;
  realized: number;
  wins: number;
  liquidations: number;
  best: number | null;
}

const NONE: Tally = { closed: 0, realized: 0, wins: 0, liquidations: 0, best: null };

/**
 * The trades the retention pruned (trades-prune.lua, keys.bookPruned), split as the audit adds them: `current` closed
 * since the last reset, `archived` before it (their liquidations and best are not kept: no counter of those spans resets).
 */
export interface PrunedTrades {
  current: Tally;
  archived: Tally;
}

export const NOTHING_PRUNED: PrunedTrades = { current: NONE, archived: NONE };

const count = (value: string | undefined): number => (value === undefined || value === '' ? 0 : Number(value));

/**
 * A book's pruned counters hash (HGETALL of keys.bookPruned) as the audit adds them, given the book's reset_ts: the period
 * fields count as current only when they name that reset (else a reset since archived them); the rest of life_* is archived.
 */
export function prunedTrades(h: Record<string, string>, resetTs: number): PrunedTrades {
  const life: Tally = {
    closed: count(h.life_closed),
    realized: count(h.life_realized_cents),
    wins: count(h.life_wins),
    liquidations: 0,
    best: null,
  };
  const current: Tally =
    count(h.reset_ts) === resetTs
      ? {
          closed: count(h.closed),
          realized: count(h.realized_cents),
          wins: count(h.wins),
          liquidations: count(h.liquidations),
          best: h.best_cents === undefined ? null : Number(h.best_cents),
        }
      : NONE;
  return {
    current,
    archived: { ...life, closed: life.closed - current.closed, realized: life.realized - current.realized, wins: life.wins - current.wins },
  };
}

const most = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

function tally(trades: readonly LedgerTrade[], pruned: Tally = NONE): Tally {
  const sum: Tally = { ...pruned };
  for (const trade of trades) {
    const cents = tradeCents(trade);
    sum.closed += 1;
    sum.realized += cents;
    if (cents > 0) sum.wins += 1;
    if (trade.liquidated === true) sum.liquidations += 1;
    sum.best = most(sum.best, cents);
  }
  return sum;
}

/**
 * What the counters should hold after these closes since the last reset (`trades`) and those the resets archived
 * (`archived`, which only the lifetime counters include).
 */
export function recomputeBook(
  trades: readonly LedgerTrade[],
  archived: readonly LedgerTrade[] = [],
  pruned: PrunedTrades = NOTHING_PRUNED,
  startingBalanceUsd = AUDIT_STARTING_BALANCE_USD,
): BookMoney {
  const { closed, realized, wins, liquidations, best } = tally(trades, pruned.current);
  const before = tally(archived, pruned.archived);
  return {
    balance_cents: toCents(startingBalanceUsd) + realized,
    realized_cents: realized,
    closed,
    wins,
    losses: closed - wins,
    liquidations,
    best_cents: best,
    life_realized_cents: before.realized + realized,
    life_closed: before.closed + closed,
    life_wins: before.wins + wins,
    life_losses: before.closed - before.wins + closed - wins,
  };
}

/** The counters as the book's views read them: balance = stored starting balance (10000 when unset) + realized. */
export function storedBook(stored: StoredBookMoney): BookMoney {
  return {
    balance_cents: toCents(stored.starting_balance || AUDIT_STARTING_BALANCE_USD) + stored.realized_cents,
    realized_cents: stored.realized_cents,
    closed: stored.closed,
    wins: stored.wins,
    losses: stored.losses,
    liquidations: stored.liquidations,
    best_cents: stored.best_cents,
    life_realized_cents: stored.life_realized_cents,
    life_closed: stored.life_closed,
    life_wins: stored.life_wins,
    life_losses: stored.life_losses,
  };
}

/** Every field where the stored counters and the ledger disagree; empty when the book is consistent. */
export function auditBook(
  stored: StoredBookMoney,
  trades: readonly LedgerTrade[],
  archived: readonly LedgerTrade[] = [],
  pruned: PrunedTrades = NOTHING_PRUNED,
): AuditDifference[] {
  const have = storedBook(stored);
  const want = recomputeBook(trades, archived, pruned);
  return AUDIT_FIELDS.filter((field) => have[field] !== want[field]).map((field) => ({
    field,
    stored: have[field],
    recomputed: want[field],
  }));
}
