/**
 * The sweep's reads: ranges of the per-symbol trigger indexes, the positions their members name;
 * and its index upkeep: dropping members whose position is gone, aligning those that trigger
 * nothing. Index entries are hints (trigger-hints.ts); the settlement scripts (PositionStore)
 * re-check the position itself.
 */
import type { RedisClient } from '../../core/redis-client.js';
import type { Side } from '../../engine/side.js';
import { keys } from '../../redis/keys.js';
import { positionScripts } from '../positions/lua/position-scripts.js';
import { parsePosition, type BookRef, type StoredPosition } from '../positions/position-types.js';
import { TRIGGER_KINDS, TriggerHints, type HintTarget, type IndexedPosition, type TriggerKind } from '../positions/trigger-hints.js';
import { inBatches } from './batches.js';
import { anySlotPipeline, execPipeline } from '../../redis/pipeline.js';

/** Every index of a symbol: each kind, long and short. */
export const RANGES_PER_SYMBOL = TRIGGER_KINDS.length * 2;

/** A score range of one index: numbers are inclusive, '(x' exclusive, '-inf' / '+inf' open ('+inf' as min: nothing). */
export interface IndexRange {
  symbol: string;
  kind: TriggerKind;
  side: Side;
  min: number | string;
  max: number | string;
}

/** A position named by an index member. */
export interface PositionRef {
  ref: BookRef;
  id: string;
}

export class SweepStore {
  private readonly hints: TriggerHints;

  constructor(private readonly redis: RedisClient) {
    this.hints = new TriggerHints(redis);
  }

  /**
   * The members of each range, in the order asked. Each entry holds the ranges of one symbol, one per
   * index kind and side (RANGES_PER_SYMBOL), read in one script call: its indexes share a slot.
   */
  ranges(symbols: readonly (readonly IndexRange[])[]): Promise<string[][][]> {
    return inBatches(symbols, async (chunk) => {
      const calls = chunk.map((ranges) => {
        if (ranges.length !== RANGES_PER_SYMBOL || ranges.some((r) => r.symbol !== ranges[0].symbol))
          throw new Error("sweep: one symbol's eight index ranges per call");
        return { keys: ranges.map((r) => keys.triggerIndex(r.symbol, r.kind, r.side)), args: ranges.flatMap((r) => [r.min, r.max]) };
      });
      return (await positionScripts.runManyStatus(this.redis, 'trigger-ranges', calls)).map((reply) => reply.slice(1) as string[][]);
    });
  }

  /** The open positions named, null where a position is not open (closed, or never was). */
  positions(targets: readonly PositionRef[]): Promise<(StoredPosition | null)[]> {
    return inBatches(targets, async (chunk) => {
      const pipeline = anySlotPipeline(this.redis);
      for (const t of chunk) pipeline.hget(keys.bookOpen(t.ref.accountId, t.ref.book), t.id);
      return (await execPipeline(pipeline)).map((raw) => (typeof raw === 'string' ? parsePosition(raw) : null));
    });
  }

  /**
   * Drops the members of positions that are no longer open: ids are never reused, so such a member
   * can never be right again.
   */
  drop(gone: readonly IndexedPosition[]): Promise<void> {
    return this.hints.remove(gone);
  }

  /** Sets the members of positions that triggered nothing to their levels as read (an early entry: a loosened or cleared level). */
  align(read: readonly (HintTarget & { raw: string })[]): Promise<void> {
    return this.hints.align(read);
  }
}
