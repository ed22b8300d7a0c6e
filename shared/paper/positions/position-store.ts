/**
 * Redis reads and the money-moving scripts of positions and books (besides these, a fill opens a position in order-fill.lua, the sweep
 * reads open positions in bulk and trigger-hints.ts reads one back). What each script is called with: position-calls.ts.
 */
import type { RedisClient } from '../../core/redis-client.js';
import { keys } from '../../redis/keys.js';
import { firstThen } from '../../redis/pipeline.js';
import { bookCounters, type BookCounters } from './book-counters.js';
import { positionScripts } from './lua/position-scripts.js';
import {
  closeCall,
  closeOutcome,
  levelsCall,
  levelsOutcome,
  LIVE_JOURNAL,
  openCall,
  resetCall,
  type CloseOutcome,
  type CloseRecord,
  type CloseWrite,
  type JournalKeys,
  type LevelsOutcome,
  type LevelsWrite,
  type OpenOutcome,
  type OpenRules,
  type ResetOutcome,
} from './position-calls.js';
import { parsePosition, type BookRef, type Position, type StoredPosition } from './position-types.js';
import { heldKinds, TriggerHints, type HintTarget, type IndexedPosition } from './trigger-hints.js';

/** Trigger hints for a store that keeps none. */
const NO_HINTS: Pick<TriggerHints, 'widen' | 'remove' | 'align'> = {
  widen: async () => undefined,
  remove: async () => undefined,
  align: async () => undefined,
};

const oldestFirst = (raws: string[]): StoredPosition[] =>
  raws.map(parsePosition).sort((a, b) => a.position.opened_ts - b.position.opened_ts || (a.position.id < b.position.id ? -1 : 1));

export class PositionStore {
  private readonly hints: Pick<TriggerHints, 'widen' | 'remove' | 'align'>;

  constructor(
    private readonly redis: RedisClient,
    private readonly journal: JournalKeys = LIVE_JOURNAL,
  ) {
    this.hints = journal.triggerIndexes ? new TriggerHints(redis) : NO_HINTS;
  }

  async getOpen(ref: BookRef, id: string): Promise<StoredPosition | null> {
    const raw = await this.redis.hget(keys.bookOpen(ref.accountId, ref.book), id);
    return raw === null ? null : parsePosition(raw);
  }

  /** The position a client_order_id opened, as it stands now (open, closed, or archived by a reset); null when unused. */
  async findIdempotentOpen(ref: BookRef, clientOrderId: string): Promise<StoredPosition | null> {
    const id = await this.redis.get(keys.bookIdempotency(ref.accountId, ref.book, 'open', clientOrderId));
    if (id === null) return null;
    return (await this.getOpen(ref, id)) ?? (await this.getClosed(ref, id)) ?? (await this.getArchived(ref, id));
  }

  /** A closed position that a reset archived (newest archive first); null when none holds it. */
  async getArchived(ref: BookRef, id: string): Promise<StoredPosition | null> {
    const resets = await this.redis.zrevrange(keys.bookArchives(ref.accountId, ref.book), 0, -1);
    for (const resetTs of resets) {
      const raw = await this.redis.hget(keys.bookArchiveClosed(ref.accountId, ref.book, Number(resetTs)), id);
      if (raw !== null) return parsePosition(raw);
    }
    return null;
  }

  /** What a close with this client_order_id did; null when unused. */
  async findIdempotentClose(ref: BookRef, clientOrderId: string): Promise<CloseRecord | null> {
    const prior = await this.redis.get(keys.bookIdempotency(ref.accountId, ref.book, 'close', clientOrderId));
    return prior === null ? null : (JSON.parse(prior) as CloseRecord);
  }

  async getClosed(ref: BookRef, id: string): Promise<StoredPosition | null> {
    const raw = await this.redis.hget(keys.bookClosed(ref.accountId, ref.book), id);
    return raw === null ? null : parsePosition(raw);
  }

  /** The book's open positions, oldest first. */
  async listOpen(ref: BookRef): Promise<StoredPosition[]> {
    return oldestFirst(await this.redis.hvals(keys.bookOpen(ref.accountId, ref.book)));
  }

  /**
   * The open positions and the id of the account outbox's last entry ('0-0': none yet), in one transaction: the positions
   * hold every event up to that id and none after it (the stream's snapshot).
   */
  async listOpenAtOutbox(ref: BookRef): Promise<{ open: StoredPosition[]; outboxId: string }> {
    const replies = await this.redis
      .multi()
      .hvals(keys.bookOpen(ref.accountId, ref.book))
      .xinfo('STREAM', this.journal.outbox(ref.accountId))
      .exec();
    if (replies === null) throw new Error('the read of the open positions was aborted');
    const [[openError, open], [, info]] = replies;
    if (openError) throw openError;
    // an outbox never written is no stream yet: XINFO's error then means no entry so far
    const fields: unknown[] = Array.isArray(info) ? info : [];
    const lastId = fields[fields.indexOf('last-generated-id') + 1];
    return { open: oldestFirst(open as string[]), outboxId: typeof lastId === 'string' ? lastId : '0-0' };
  }

  countOpen(ref: BookRef): Promise<number> {
    return this.redis.hlen(keys.bookOpen(ref.accountId, ref.book));
  }

  /**
   * Closed positions newest first with closed_ts in [minTs, maxTs) (maxTs exclusive, Infinity for
   * none), at most `limit` (plus `extra` more to look ahead).
   */
  async listClosed(ref: BookRef, range: { minTs: number; maxTs: number; limit: number }): Promise<Position[]> {
    const max = Number.isFinite(range.maxTs) ? `(${range.maxTs}` : '+inf';
    const ids = await this.redis.zrevrangebyscore(
      keys.bookClosedByTime(ref.accountId, ref.book),
      max,
      range.minTs,
      'LIMIT',
      0,
      range.limit,
    );
    if (ids.length === 0) return [];
    const raws = await this.redis.hmget(keys.bookClosed(ref.accountId, ref.book), ...ids);
    return raws.filter((raw): raw is string => raw !== null).map((raw) => parsePosition(raw).position);
  }

  async counters(ref: BookRef): Promise<BookCounters> {
    return bookCounters(await this.redis.hgetall(keys.bookStats(ref.accountId, ref.book)));
  }

  /** The books that have traded (or were reset). */
  tradedBooks(accountId: string): Promise<string[]> {
    return this.redis.smembers(keys.paperBooks(accountId));
  }

  /** Opens a position within the book's cap; its trigger entries go in first and come out again when nothing was stored. */
  async open(ref: BookRef, position: Position, cap: number, rules: OpenRules = {}): Promise<OpenOutcome> {
    const target = { ref, position, kinds: heldKinds(position) };
    const call = openCall(ref, position, cap, rules, this.journal);
    // the entries first (sent together on one server: one connection runs them in that order)
    const [, [status, value, ...rest]] = await firstThen(
      this.redis,
      () => this.hints.widen([target]),
      () => positionScripts.runStatus(this.redis, 'position-open', call),
    );
    if (status === 1) return { kind: 'opened', stored: parsePosition(String(value)) };
    await this.hints.remove([target]);
    if (status === 2) return { kind: 'idempotent', stored: parsePosition(String(value)) };
    if (status === 3) return { kind: 'idempotent', stored: await this.getArchived(ref, String(value)) };
    if (status === -2) return { kind: 'budget', freeCents: Number(value), inUseCents: Number(rest[0]), balanceCents: Number(rest[1]) };
    if (status === -3) return { kind: 'held', id: String(value) };
    return { kind: 'cap', open: Number(value) };
  }

  async close(write: CloseWrite): Promise<CloseOutcome> {
    return (await this.closeMany([write]))[0];
  }

  /**
   * Many closes in one pipeline (the sweep settles a minute this way); outcomes in the order given.
   * A whole close's trigger entries come out afterwards; a partial close's remaining part keeps its
   * entries, aligned to its levels. Not async: only what the entries need is held while the scripts
   * run, not the positions as read (less for the young generation to copy).
   */
  closeMany(writes: readonly CloseWrite[]): Promise<CloseOutcome[]> {
    const after = writes.map(({ ref, read: { position: p }, remaining }) => ({
      ref,
      position: { id: p.id, symbol: p.symbol, side: p.side },
      kinds: heldKinds(p),
      remaining,
    }));
    return this.afterCloses(
      positionScripts.runManyStatus(
        this.redis,
        'position-close',
        writes.map((w) => closeCall(w, this.journal)),
      ),
      after,
    );
  }

  private async afterCloses(
    replies: Promise<[number, ...unknown[]][]>,
    after: (IndexedPosition & { remaining: string | null })[],
  ): Promise<CloseOutcome[]> {
    const outcomes = (await replies).map(closeOutcome);
    const gone: IndexedPosition[] = [];
    const remaining: (HintTarget & { raw: string })[] = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.kind !== 'closed') return;
      const { ref, position, kinds, remaining: rest } = after[i];
      if (rest === null) gone.push({ ref, position, kinds });
      else remaining.push({ ref, ...parsePosition(rest) });
    });
    await Promise.all([this.hints.remove(gone), this.hints.align(remaining)]);
    return outcomes;
  }

  /** Applies new levels (sltp, a trailing stop's ratchet) if the position is still as read; position.updated on success. */
  async sltp(ref: BookRef, read: StoredPosition, updated: Position, now: number): Promise<LevelsOutcome> {
    return (await this.sltpMany([{ ref, read, updated, now }]))[0];
  }

  /**
   * Many level changes in one pipeline (the minute sweep's ratchets); outcomes in the order given.
   * The trigger entries are widened toward the new levels first and set to them once applied.
   */
  async sltpMany(writes: readonly LevelsWrite[]): Promise<LevelsOutcome[]> {
    const calls = writes.map((w) => {
      const raw = JSON.stringify(w.updated);
      return { call: levelsCall(w, raw, this.journal), stored: { ref: w.ref, position: w.updated, raw } };
    });
    // the entries first (as for an open)
    const [, replies] = await firstThen(
      this.redis,
      () => this.hints.widen(calls.map((c) => c.stored)),
      () =>
        positionScripts.runManyStatus(
          this.redis,
          'position-sltp',
          calls.map((c) => c.call),
        ),
    );
    const outcomes = replies.map(levelsOutcome);
    await this.hints.align(calls.flatMap((c, i) => (outcomes[i] === 'updated' ? [c.stored] : [])));
    return outcomes;
  }

  async reset(ref: BookRef, resetTs: number, startingBalance: number): Promise<ResetOutcome> {
    const [status, a, b] = await positionScripts.runStatus(this.redis, 'book-reset', resetCall(ref, resetTs, startingBalance));
    if (status === 1) return { kind: 'reset', archived: Number(a), cancelled: Number(b) };
    if (status === -1) return { kind: 'open', open: Number(a) };
    return { kind: 'busy' };
  }
}
