/**
 * The per-symbol trigger indexes that the sweep reads (keys.triggerIndex). They are cross-account
 * keys under the symbol's hash tag, so no account script writes them: under Redis Cluster they sit
 * in another slot (DESIGN.md principle 3). They are hints, kept by plain commands around the
 * scripts so that an entry is never later than its position's own level: the sweep then finds
 * every trigger, and an early or stale entry costs it one read.
 * - Before a script sets levels: widen, which only moves an entry toward where the sweep finds it
 *   sooner (ZADD GT or LT), so a crash right after the script hides nothing.
 * - Once the script applied: align, the exact levels, then a read-back: when the position changed
 *   meanwhile, another writer's early entry may have been overwritten, so it is widened again.
 * - Once the position is gone (closed, or never stored): remove. Ids are never reused.
 * The sweep aligns the members it was offered that trigger nothing (a loosened or cleared level),
 * and drops those of positions not open, unless the id is young enough that its open may still be
 * on its way (mayBeStoring in ../timed-ids.ts).
 */
import type { RedisClient } from '../../core/redis-client.js';
import type { Side } from '../../engine/side.js';
import { effectiveStop } from '../../engine/trailing.js';
import { keys } from '../../redis/keys.js';
import { ZsetWrites } from '../../redis/zset-writes.js';
import { parsePosition, triggerMember, type BookRef, type Position } from './position-types.js';

export type TriggerKind = 'liq' | 'sl' | 'tp' | 'trail';
export const TRIGGER_KINDS: readonly TriggerKind[] = ['liq', 'sl', 'tp', 'trail'];

/**
 * A position's score in each index, null where it has none: the stop in force (the tighter of stop-loss and trailing stop), the trailing
 * high-water mark.
 */
export function triggerLevels(p: Position): Record<TriggerKind, number | null> {
  return { liq: p.liq_price, sl: effectiveStop(p), tp: p.tp, trail: p.trail_pct === null ? null : p.trail_hwm };
}

/**
 * Which way an entry moves to be found sooner by the sweep's ranges (sweep-service.ts): a long's
 * stop and liquidation fire at the low, so higher is sooner; its target fires at the high and its
 * trailing mark ratchets below it, so lower is sooner; a short mirrors that.
 */
export function soonerFlag(kind: TriggerKind, side: Side): 'GT' | 'LT' {
  const higherIsSooner = kind === 'sl' || kind === 'liq' ? side === 'long' : side === 'short';
  return higherIsSooner ? 'GT' : 'LT';
}

export interface HintTarget {
  ref: BookRef;
  position: Position;
}

/** What names a position's entries (removing them needs no levels). */
export interface IndexedPosition {
  ref: BookRef;
  position: Pick<Position, 'id' | 'symbol' | 'side'>;
  /** The indexes that hold it, when known (its levels); every index otherwise. */
  kinds?: readonly TriggerKind[];
}

/** The indexes a position's levels put it in. */
export function heldKinds(p: Position): TriggerKind[] {
  const levels = triggerLevels(p);
  return TRIGGER_KINDS.filter((kind) => levels[kind] !== null);
}

export class TriggerHints {
  constructor(private readonly redis: RedisClient) {}

  /** Adds each level, or moves an existing entry only toward sooner. */
  async widen(targets: readonly HintTarget[]): Promise<void> {
    const adds = new ZsetWrites();
    for (const { ref, position: p } of targets) {
      const levels = triggerLevels(p);
      for (const kind of TRIGGER_KINDS) {
        const level = levels[kind];
        if (level !== null) adds.add(keys.triggerIndex(p.symbol, kind, p.side), soonerFlag(kind, p.side), level, triggerMember(ref, p.id));
      }
    }
    await adds.send(this.redis);
  }

  /**
   * Takes the positions' members out of the indexes that hold them (every index of their symbol and
   * side when not known). An entry left elsewhere (a writer that lost a race widened it) is stale:
   * the sweep drops it when it meets it.
   */
  async remove(targets: readonly IndexedPosition[]): Promise<void> {
    const removes = new ZsetWrites();
    for (const { ref, position: p, kinds } of targets) {
      for (const kind of kinds ?? TRIGGER_KINDS) removes.remove(keys.triggerIndex(p.symbol, kind, p.side), triggerMember(ref, p.id));
    }
    await removes.send(this.redis);
  }

  /**
   * Sets the entries of positions as stored (their raw JSON) to exactly their levels, then reads
   * them back, in one pipeline (one connection runs it in order, so each read follows the writes):
   * one that changed since is widened to its new levels, one that is gone is removed.
   */
  async align(stored: readonly (HintTarget & { raw: string })[]): Promise<void> {
    if (stored.length === 0) return;
    const exact = new ZsetWrites();
    for (const { ref, position: p } of stored) {
      const member = triggerMember(ref, p.id);
      const levels = triggerLevels(p);
      for (const kind of TRIGGER_KINDS) {
        const key = keys.triggerIndex(p.symbol, kind, p.side);
        const level = levels[kind];
        if (level === null) exact.remove(key, member);
        else exact.add(key, null, level, member);
      }
    }
    const moved = await exact.sendThenChanged(this.redis, stored, ({ ref, position }) => ({
      key: keys.bookOpen(ref.accountId, ref.book),
      field: position.id,
    }));
    const gone = moved.filter(({ now }) => now === null).map(({ record }) => record);
    const changed = moved.flatMap(({ record, now }) => (now === null ? [] : [{ ref: record.ref, position: parsePosition(now).position }]));
    await Promise.all([this.widen(changed), this.remove(gone)]);
  }
}
