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
 * are never reset: they also count the closes every reset archived.
 */
import { toCents } from '../../engine/side.js';
import type { BookCounters } from '../positions/position-store.js';

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

interface Tally {
  realized: number;
  wins: number;
  liquidations: number;
  best: number | null;
}

function tally(trades: readonly LedgerTrade[]): Tally {
  const sum: Tally = { realized: 0, wins: 0, liquidations: 0, best: null };
  for (const trade of trades) {
    const cents = tradeCents(trade);
    sum.realized += cents;
    if (cents > 0) sum.wins += 1;
    if (trade.liquidated === true) sum.liquidations += 1;
    if (sum.best === null || cents > sum.best) sum.best = cents;
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
  startingBalanceUsd = AUDIT_STARTING_BALANCE_USD,
): BookMoney {
  const { realized, wins, liquidations, best } = tally(trades);
  const before = tally(archived);
  return {
    balance_cents: toCents(startingBalanceUsd) + realized,
    realized_cents: realized,
    closed: trades.length,
    wins,
    losses: trades.length - wins,
    liquidations,
    best_cents: best,
    life_realized_cents: before.realized + realized,
    life_closed: archived.length + trades.length,
    life_wins: before.wins + wins,
    life_losses: archived.length - before.wins + trades.length - wins,
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
): AuditDifference[] {
  const have = storedBook(stored);
  const want = recomputeBook(trades, archived);
  return AUDIT_FIELDS.filter((field) => have[field] !== want[field]).map((field) => ({
    field,
    stored: have[field],
    recomputed: want[field],
  }));
}
