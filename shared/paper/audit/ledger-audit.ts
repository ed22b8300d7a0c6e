/**
 * The ledger audit: a book's money recomputed from its trade ledger (the closed positions and closed parts
 * since its last reset) and compared with the counters the money-moving scripts keep. Pure.
 *
 * What the scripts do (position-close.lua, book-reset.lua): each close adds its realized cents (the closed
 * record's pnl_usd, stored as cents / 100) to realized_cents, counts a win when the cents are > 0 and a loss
 * otherwise, counts a liquidation when the record is liquidated, and keeps the best cents; a reset archives the
 * closed records and sets the counters back to zero with the starting balance. Opens, fees and funding move no
 * counter: fees and funding are settled into the close's cents, and margin is not taken from the balance (the
 * balance is a scorecard, margin_enforced false), so balance = starting balance + realized P&L.
 */
import type { BookCounters } from '../positions/position-store.js';

/** The starting balance of every book, USD (position-reads.ts STARTING_BALANCE_USD; a reset stores it again). */
export const AUDIT_STARTING_BALANCE_USD = 10_000;

/** The counters of a book as stored (its stats hash), the fields the audit checks. */
export type StoredBookMoney = Pick<
  BookCounters,
  'starting_balance' | 'realized_cents' | 'closed' | 'wins' | 'losses' | 'liquidations' | 'best_cents'
>;

/** What the audit reads of one closed record. */
export interface LedgerTrade {
  pnl_usd: number;
  liquidated?: boolean;
}

export type AuditField = 'balance_cents' | 'realized_cents' | 'closed' | 'wins' | 'losses' | 'liquidations' | 'best_cents';

export interface AuditDifference {
  field: AuditField;
  stored: number | null;
  recomputed: number | null;
}

/** The fields in the order they are reported. */
export const AUDIT_FIELDS: readonly AuditField[] = [
  'balance_cents',
  'realized_cents',
  'closed',
  'wins',
  'losses',
  'liquidations',
  'best_cents',
];

export type BookMoney = Record<AuditField, number | null>;

/** A closed record's realized cents, as position-close.lua was given them (pnl_usd is cents / 100). */
export const tradeCents = (trade: LedgerTrade): number => Math.round(trade.pnl_usd * 100);

/** What the counters should hold after these closes since the last reset. */
export function recomputeBook(trades: readonly LedgerTrade[], startingBalanceUsd = AUDIT_STARTING_BALANCE_USD): BookMoney {
  let realized = 0;
  let wins = 0;
  let liquidations = 0;
  let best: number | null = null;
  for (const trade of trades) {
    const cents = tradeCents(trade);
    realized += cents;
    if (cents > 0) wins += 1;
    if (trade.liquidated === true) liquidations += 1;
    if (best === null || cents > best) best = cents;
  }
  return {
    balance_cents: Math.round(startingBalanceUsd * 100) + realized,
    realized_cents: realized,
    closed: trades.length,
    wins,
    losses: trades.length - wins,
    liquidations,
    best_cents: best,
  };
}

/** The counters as the book's views read them: balance = stored starting balance (10000 when unset) + realized. */
export function storedBook(stored: StoredBookMoney): BookMoney {
  return {
    balance_cents: Math.round((stored.starting_balance || AUDIT_STARTING_BALANCE_USD) * 100) + stored.realized_cents,
    realized_cents: stored.realized_cents,
    closed: stored.closed,
    wins: stored.wins,
    losses: stored.losses,
    liquidations: stored.liquidations,
    best_cents: stored.best_cents,
  };
}

/** Every field where the stored counters and the ledger disagree; empty when the book is consistent. */
export function auditBook(stored: StoredBookMoney, trades: readonly LedgerTrade[]): AuditDifference[] {
  const have = storedBook(stored);
  const want = recomputeBook(trades);
  return AUDIT_FIELDS.filter((field) => have[field] !== want[field]).map((field) => ({
    field,
    stored: have[field],
    recomputed: want[field],
  }));
}
