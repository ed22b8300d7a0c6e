/**
 * The retention of closed trades: a book's trades closed more than TRADE_RETENTION_DAYS ago (live, or in a reset's
 * archive) leave Redis, each folded into the book's compact counters (keys.bookPruned) in the same step
 * (trades-prune.lua), so the ledger audit still adds up. No plan reads that far back (config.ts keeps the retention at
 * least the longest window), so /trades, /report and /equity answer the same after a prune. The books with trades to
 * prune are found through the per-slot prune index that position-close.lua writes, never by scanning the keyspace;
 * each run does bounded work (pruneLimits) and leaves the rest to the next.
 */
import type { Redis } from 'ioredis';
import type { RedisClient } from '../../core/redis-client.js';
import { DAY_MS } from '../../engine/analytics/close-facts.js';
import { keys } from '../../redis/keys.js';
import { bySlotOwner } from '../../redis/slot-owners.js';
import { SLOTS } from '../../redis/slot-tags.js';
import { positionScripts } from './lua/position-scripts.js';
import type { BookRef } from './position-types.js';

export interface PruneLimits {
  /** Trades one run removes at most. */
  trades: number;
  /** Trades one script call removes at most (how long Redis is held by one step). */
  batch: number;
  /** Books one run visits at most. */
  books: number;
  /** Slots whose indexes one read covers (one script call per master). */
  slotsPerRead: number;
}

/** A run's bounds, `perRun` trades and as many books (TRADE_PRUNE_PER_RUN); the figures behind them: docs/CAPACITY.md. */
export const pruneLimits = (perRun: number): PruneLimits => ({ trades: perRun, batch: 500, books: perRun, slotsPerRead: 2_048 });

export interface PruneRun {
  books: number;
  trades: number;
  /** False when the run stopped at a bound with trades past the retention left (the next run goes on). */
  complete: boolean;
  /** Index slots the run could not read (a master unknown or failing): read by a later run. */
  unread: number;
}

const MEMBER = /^acct:\{([^}]+)\}:b:([A-Za-z0-9_-]+):closed:ts$/;

/** The book an index member names (its closed-by-time key), or null for anything else. */
export function bookOfPruneMember(member: string): BookRef | null {
  const match = MEMBER.exec(member);
  return match ? { accountId: match[1], book: match[2] } : null;
}

export class TradePrune {
  constructor(
    private readonly redis: RedisClient,
    private readonly retentionDays: number,
  ) {}

  /**
   * Puts the book in its slot's prune index at the oldest close time it holds (none: left out); true when it holds one.
   * For books closed before the index existed, or whose index entry a failover or restore lost (`cli reindex`): ZADD LT
   * only ever lowers a score, so it is safe beside closes and prunes (a prune sets the exact score again).
   */
  async indexBook(ref: BookRef): Promise<boolean> {
    const { accountId, book } = ref;
    const [archive] = await this.redis.zrange(keys.bookArchives(accountId, book), '0', '0');
    const times =
      archive === undefined ? keys.bookClosedByTime(accountId, book) : keys.bookArchiveClosedByTime(accountId, book, Number(archive));
    const [, oldest] = await this.redis.zrange(times, '0', '0', 'WITHSCORES');
    if (oldest === undefined) return false;
    await this.redis.zadd(keys.tradePruneIndex(accountId), 'LT', oldest, keys.bookClosedByTime(accountId, book));
    return true;
  }

  /**
   * One run at `now`: the due books slot by slot, each pruned until done or the run's bounds are reached. Each minute's
   * run starts at another step of slots, so a backlog larger than a run does not leave the last slots waiting.
   */
  async run(now: number, limits: PruneLimits): Promise<PruneRun> {
    const cutoff = now - this.retentionDays * DAY_MS;
    const run: PruneRun = { books: 0, trades: 0, complete: true, unread: 0 };
    const steps = Math.ceil(SLOTS / limits.slotsPerRead);
    const first = Math.floor(now / 60_000) % steps;
    for (let k = 0; k < steps; k++) {
      const from = ((first + k) % steps) * limits.slotsPerRead;
      if (run.trades >= limits.trades || run.books >= limits.books) {
        run.complete = false;
        break;
      }
      const due = await this.due(from, limits.slotsPerRead, cutoff, limits.books - run.books, run);
      for (const ref of due) {
        if (run.trades >= limits.trades) break;
        const { pruned, more } = await this.pruneBook(ref, cutoff, limits.trades - run.trades, limits.batch);
        run.books += 1;
        run.trades += pruned;
        if (more) run.complete = false;
      }
    }
    return run;
  }

  /** The books of slots [from, from + count) with trades closed before the cutoff, at most `max`. */
  private async due(from: number, count: number, cutoff: number, max: number, run: PruneRun): Promise<BookRef[]> {
    const slots = Array.from({ length: Math.min(count, SLOTS - from) }, (_, i) => from + i);
    const owners = bySlotOwner(this.redis, slots);
    run.unread += slots.length - [...owners.values()].reduce((sum, owned) => sum + owned.length, 0);
    const found = await Promise.all([...owners].map(([node, owned]) => this.dueOn(node, owned, cutoff, max, run)));
    return found
      .flat()
      .slice(0, max)
      .flatMap((member) => bookOfPruneMember(member) ?? []);
  }

  /** One master's part; a slot that moved meanwhile fails the call: read by a later run. */
  private async dueOn(node: Redis, slots: number[], cutoff: number, max: number, run: PruneRun): Promise<string[]> {
    try {
      const reply = await positionScripts.run(node, 'trades-prune-due', {
        keys: [],
        args: [cutoff, max, ...slots.map(keys.tradePruneIndexOfSlot)],
      });
      return reply as string[];
    } catch {
      run.unread += slots.length;
      return [];
    }
  }

  /**
   * Prunes one book's trades closed before the cutoff, at most `budget`, `batch` per call; `more`: it holds some still.
   * A call that finds the archives changed since they were read prunes nothing and asks again, so the calls are bounded too.
   */
  async pruneBook(ref: BookRef, cutoff: number, budget: number, batch: number): Promise<{ pruned: number; more: boolean }> {
    const { accountId, book } = ref;
    let pruned = 0;
    let more = true;
    for (let calls = Math.ceil(budget / batch) + 2; more && pruned < budget && calls > 0; calls--) {
      const [oldestArchive] = await this.redis.zrange(keys.bookArchives(accountId, book), '0', '0');
      const archive = oldestArchive === undefined ? null : Number(oldestArchive);
      const [n, again] = await positionScripts.runStatus(this.redis, 'trades-prune', {
        keys: [
          keys.bookClosed(accountId, book),
          keys.bookClosedByTime(accountId, book),
          keys.bookStats(accountId, book),
          keys.bookPruned(accountId, book),
          keys.bookArchives(accountId, book),
          archive === null ? keys.bookClosed(accountId, book) : keys.bookArchiveClosed(accountId, book, archive),
          archive === null ? keys.bookClosedByTime(accountId, book) : keys.bookArchiveClosedByTime(accountId, book, archive),
          keys.tradePruneIndex(accountId),
        ],
        args: [cutoff, Math.min(batch, budget - pruned), keys.bookClosedByTime(accountId, book), oldestArchive ?? ''],
      });
      pruned += n;
      more = again === 1;
    }
    return { pruned, more };
  }
}
