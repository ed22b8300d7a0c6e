/**
 * The money-moving script of an increase (position-increase.lua) and the liquidation hint around it: the position's
 * entries in the per-symbol trigger indexes are widened toward the new levels before the script and set to them once it
 * applied (trigger-hints.ts), as for a change of its stop; when it did not apply, set back to the position as it
 * stands (a retry's or a lost race's widened entry would otherwise stay early until the sweep met it).
 */
import { firstThen } from '../../redis/pipeline.js';
import { keys } from '../../redis/keys.js';
import type { RedisClient } from '../../core/redis-client.js';
import { positionScripts } from './lua/position-scripts.js';
import { digest, IDEMPOTENCY_TTL_S, LIVE_JOURNAL, unusedSlot, type JournalKeys } from './position-calls.js';
import { parsePosition, reqArg, type BookRef, type Position, type StoredPosition } from './position-types.js';
import { TriggerHints } from './trigger-hints.js';

/** The added leg of an increase: its fill price and base quantity. */
export interface AddedLeg {
  price: number;
  qty: number;
}

/** What an increase with a client order id stored, and what a retry of it answers. */
export interface IncreaseRecord {
  added: AddedLeg;
  position: Position;
}

export type IncreaseOutcome =
  | { kind: 'increased'; stored: StoredPosition }
  | { kind: 'idempotent'; record: IncreaseRecord }
  | { kind: 'stale' }
  | { kind: 'gone' }
  | { kind: 'budget'; freeCents: number; inUseCents: number; balanceCents: number };

export interface IncreaseWrite {
  ref: BookRef;
  read: StoredPosition;
  updated: Position;
  added: AddedLeg;
  addedMarginCents: number;
  clientOrderId: string | null;
  enforceMargin: boolean;
  now: number;
}

export class IncreaseStore {
  private readonly hints: TriggerHints;

  constructor(
    private readonly redis: RedisClient,
    private readonly journal: JournalKeys = LIVE_JOURNAL,
  ) {
    this.hints = new TriggerHints(redis);
  }

  /** What an increase with this client order id stored (the position as it left it); null when unused. */
  async findIdempotent(ref: BookRef, clientOrderId: string): Promise<IncreaseRecord | null> {
    const raw = await this.redis.get(keys.bookIdempotency(ref.accountId, ref.book, 'increase', clientOrderId));
    return raw === null ? null : (JSON.parse(raw) as IncreaseRecord);
  }

  async increase(write: IncreaseWrite): Promise<IncreaseOutcome> {
    const { ref, read, updated, clientOrderId: coid } = write;
    const raw = JSON.stringify(updated);
    const target = { ref, position: updated, raw };
    const call = {
      keys: [
        keys.bookOpen(ref.accountId, ref.book),
        coid === null ? unusedSlot(ref) : keys.bookIdempotency(ref.accountId, ref.book, 'increase', coid),
        keys.bookStats(ref.accountId, ref.book),
        this.journal.outbox(ref.accountId),
        this.journal.index(ref.accountId),
      ],
      args: [
        read.position.id,
        digest(read.raw),
        raw,
        coid === null ? 0 : 1,
        IDEMPOTENCY_TTL_S,
        ref.book,
        write.now,
        write.enforceMargin ? 1 : 0,
        write.addedMarginCents,
        reqArg(ref),
        coid === null ? '' : JSON.stringify({ added: write.added, position: updated } satisfies IncreaseRecord),
      ],
    };
    // the entries first (sent together on one server: one connection runs them in that order)
    const [, [status, value, ...rest]] = await firstThen(
      this.redis,
      () => this.hints.widen([target]),
      () => positionScripts.runStatus(this.redis, 'position-increase', call),
    );
    // applied: the entries at the new levels; else back to the position as read (align re-reads it: moved, or gone)
    await this.hints.align([status === 1 ? target : { ref, position: read.position, raw: read.raw }]);
    if (status === 1) return { kind: 'increased', stored: parsePosition(String(value)) };
    if (status === 2) return { kind: 'idempotent', record: JSON.parse(String(value)) as IncreaseRecord };
    if (status === -1) return { kind: 'stale' };
    if (status === -3) return { kind: 'budget', freeCents: Number(value), inUseCents: Number(rest[0]), balanceCents: Number(rest[1]) };
    return { kind: 'gone' };
  }
}
