/**
 * What the position scripts (lua/position-*.lua, lua/book-reset.lua) are called with and what they answer: each write's keys
 * and arguments, and its outcome read from the reply. No I/O: PositionStore runs them (position-store.ts).
 */
import { hash } from 'node:crypto';
import { closeIncrements, dayIndex, minuteOf, type CloseFacts } from '../../engine/analytics/close-facts.js';
import { keys } from '../../redis/keys.js';
import type { ScriptCall } from '../../redis/lua-scripts.js';
import { closeCountsInAnalytics, CURVE_KEPT_MS, DAY_BUCKET_TTL_S } from '../analytics/analytics-retention.js';
import { DONE_ORDER_RETENTION, tombstoneKeys } from '../orders/order-types.js';
import { reqArg, type BookRef, type Position, type StoredPosition } from './position-types.js';

export const IDEMPOTENCY_TTL_S = 7 * 86_400;

export type OpenOutcome =
  | { kind: 'opened'; stored: StoredPosition }
  | { kind: 'idempotent'; stored: StoredPosition | null }
  | { kind: 'cap'; open: number }
  | { kind: 'budget'; freeCents: number; inUseCents: number; balanceCents: number }
  | { kind: 'held'; id: string };

/** What an open is refused for besides the book's cap. */
export interface OpenRules {
  /** Past the book's free margin (the profile's margin_enforced). */
  enforceMargin?: boolean;
  /** When the book holds an open position in the symbol already (an exchange dialect's one-way netting). */
  oneWay?: boolean;
}

export type CloseOutcome =
  { kind: 'closed' } | { kind: 'idempotent'; result: CloseRecord } | { kind: 'stale' } | { kind: 'already_closed' } | { kind: 'missing' };

/** What a close stored under its client_order_id. */
export interface CloseRecord {
  closed_id: string;
  remaining_id: string | null;
}

export interface CloseWrite {
  ref: BookRef;
  read: StoredPosition;
  /** The closed record (the whole position, or the closed part of a partial close): its id, close time and JSON. */
  closed: { id: string; closed_ts: number; json: string; facts: CloseFacts };
  /** A partial close's remaining part as JSON (it keeps the position's id); null for a whole close. */
  remaining: string | null;
  cents: number;
  clientOrderId: string | null;
  event: 'position.closed' | 'position.liquidated';
}

export type LevelsOutcome = 'updated' | 'stale' | 'gone';

/** A change of a position's stop, target or trailing stop (sltp, or a trailing stop's ratchet). */
export interface LevelsWrite {
  ref: BookRef;
  read: StoredPosition;
  updated: Position;
  now: number;
}

export type ResetOutcome = { kind: 'reset'; archived: number; cancelled: number } | { kind: 'open'; open: number } | { kind: 'busy' };

/** The key a script is given for an idempotency slot that is not used (any key of the account). */
export const unusedSlot = (ref: BookRef): string => keys.bookStats(ref.accountId, ref.book);

/** What the scripts compare a position by: the SHA-1 of its JSON as read (Lua's redis.sha1hex). */
export const digest = (raw: string): string => hash('sha1', raw);

export function closeOutcome([status, value]: [number, ...unknown[]]): CloseOutcome {
  if (status === 1) return { kind: 'closed' };
  if (status === 2) return { kind: 'idempotent', result: JSON.parse(String(value)) as CloseRecord };
  if (status === -1) return { kind: 'stale' };
  if (status === -2) return { kind: 'already_closed' };
  return { kind: 'missing' };
}

export const levelsOutcome = ([status]: [number, ...unknown[]]): LevelsOutcome =>
  status === 1 ? 'updated' : status === -1 ? 'stale' : 'gone';

/**
 * Where a store's scripts record what lies outside the book: the account's outbox and traded-books set, and the per-symbol trigger
 * indexes. The live book uses the account's own; a replay journal (shared/paper/replay) keeps its events and its name apart and is swept
 * by its own clock, not through the indexes.
 */
export interface JournalKeys {
  outbox(accountId: string): string;
  /** The outbox's index of unrelayed outboxes (keys.outboxIndex); the outbox itself for a journal that is never relayed. */
  index(accountId: string): string;
  /** The slot's trade prune index (keys.tradePruneIndex); the outbox itself for a journal whose trades are never pruned. */
  pruneIndex(accountId: string): string;
  books(accountId: string): string;
  triggerIndexes: boolean;
}

export const LIVE_JOURNAL: JournalKeys = {
  outbox: keys.accountOutbox,
  index: keys.outboxIndex,
  pruneIndex: keys.tradePruneIndex,
  books: keys.paperBooks,
  triggerIndexes: true,
};

/** An open within the book's cap (position-open.lua). */
export function openCall(ref: BookRef, position: Position, cap: number, rules: OpenRules, journal: JournalKeys): ScriptCall {
  const coid = position.client_order_id;
  return {
    keys: [
      keys.bookOpen(ref.accountId, ref.book),
      keys.bookClosed(ref.accountId, ref.book),
      coid === null ? unusedSlot(ref) : keys.bookIdempotency(ref.accountId, ref.book, 'open', coid),
      journal.outbox(ref.accountId),
      journal.books(ref.accountId),
      keys.bookStats(ref.accountId, ref.book),
      journal.index(ref.accountId),
    ],
    args: [
      position.id,
      JSON.stringify(position),
      cap,
      coid === null ? 0 : 1,
      IDEMPOTENCY_TTL_S,
      ref.book,
      position.opened_ts,
      rules.enforceMargin ? 1 : 0,
      Math.round(position.margin * 100),
      reqArg(ref),
      rules.oneWay ? position.symbol : '',
    ],
  };
}

export function closeCall(write: CloseWrite, journal: JournalKeys): ScriptCall {
  const { ref, read, closed, remaining, clientOrderId } = write;
  const position = read.position;
  // the idempotency record is stored only with a client_order_id (the sweep settles thousands without one)
  const record: CloseRecord | null =
    clientOrderId === null ? null : { closed_id: closed.id, remaining_id: remaining === null ? null : position.id };
  return {
    keys: [
      keys.bookOpen(ref.accountId, ref.book),
      keys.bookClosed(ref.accountId, ref.book),
      keys.bookClosedByTime(ref.accountId, ref.book),
      keys.bookStats(ref.accountId, ref.book),
      clientOrderId === null ? unusedSlot(ref) : keys.bookIdempotency(ref.accountId, ref.book, 'close', clientOrderId),
      journal.outbox(ref.accountId),
      keys.bookEquityCurve(ref.accountId, ref.book),
      keys.bookDayBucket(ref.accountId, ref.book, dayIndex(closed.closed_ts)),
      journal.index(ref.accountId),
      journal.pruneIndex(ref.accountId),
    ],
    args: [
      position.id,
      digest(read.raw),
      closed.json,
      closed.id,
      remaining ?? '',
      write.cents,
      closed.closed_ts,
      record === null ? 0 : 1,
      IDEMPOTENCY_TTL_S,
      record === null ? '' : JSON.stringify(record),
      write.event,
      ref.book,
      write.event === 'position.liquidated' ? 1 : 0,
      closeCountsInAnalytics(position) ? 1 : 0,
      minuteOf(closed.closed_ts),
      CURVE_KEPT_MS,
      DAY_BUCKET_TTL_S,
      reqArg(ref),
      ...closeIncrements(closed.facts).flat(),
    ],
  };
}

export function levelsCall({ ref, read, now }: LevelsWrite, updatedRaw: string, journal: JournalKeys): ScriptCall {
  return {
    keys: [keys.bookOpen(ref.accountId, ref.book), journal.outbox(ref.accountId), journal.index(ref.accountId)],
    args: [read.position.id, digest(read.raw), updatedRaw, ref.book, now, reqArg(ref)],
  };
}

/** A book's reset (book-reset.lua): its closed positions archived, its orders cancelled, its balance back to the start. */
export function resetCall(ref: BookRef, resetTs: number, startingBalance: number): ScriptCall {
  const { accountId, book } = ref;
  return {
    keys: [
      keys.bookOpen(accountId, book),
      keys.bookClosed(accountId, book),
      keys.bookClosedByTime(accountId, book),
      keys.bookStats(accountId, book),
      keys.bookOrders(accountId, book),
      keys.bookArchiveClosed(accountId, book, resetTs),
      keys.bookArchiveClosedByTime(accountId, book, resetTs),
      keys.bookArchives(accountId, book),
      keys.accountOutbox(accountId),
      keys.paperBooks(accountId),
      keys.bookOrderData(accountId, book),
      keys.bookOrdersDone(accountId, book),
      ...tombstoneKeys(ref),
      keys.bookEquityCurve(accountId, book),
      keys.bookDayBucket(accountId, book, dayIndex(resetTs)),
      keys.outboxIndex(accountId),
    ],
    args: [resetTs, startingBalance, book, ...DONE_ORDER_RETENTION, reqArg(ref)],
  };
}
