/**
 * The arena in Redis: each season's tallies (one hash, a field per book), its ranking (the books
 * with enough closes by P&L) and the board the rollup stored. Cross-account keys outside every
 * account's slot; a season's keys share its hash tag, so the one script writing two of them stays in one slot.
 */
import type { RedisClient } from '../core/redis-client.js';
import { MIN_CLOSES, type CloseFacts, type SeasonTally } from '../engine/arena-stats.js';
import { keys } from '../redis/keys.js';
import { arenaScripts } from './lua/arena-scripts.js';

/** A book of a season: `accountId|book` (neither holds a '|'). */
export type BookMember = string;

export const bookMember = (accountId: string, book: string): BookMember => `${accountId}|${book}`;

export function parseBookMember(member: BookMember): { accountId: string; book: string } {
  const bar = member.indexOf('|');
  return { accountId: member.slice(0, bar), book: member.slice(bar + 1) };
}

/** One close to count: the book, the outbox entry that carried it (the once-only check), and its figures. */
export interface SeasonClose {
  member: BookMember;
  entryId: string;
  facts: CloseFacts;
}

export interface BookTally {
  id: BookMember;
  tally: SeasonTally;
}

/** What the rollup reads of a season: how many books closed in it, how many are ranked, and the top of the ranking. */
export interface SeasonTop {
  books: number;
  ranked: number;
  /** The `count` best by P&L, and every book tied with the last of them (so ties at the cut are decided by the ranking's own rule). */
  candidates: BookTally[];
}

/** Books tied at the cut read at most: beyond them (thousands at one P&L to the cent) the last row's tie is decided by Redis's order. */
const MAX_TIED = 1_000;

/** A tally as arena-close.lua packs it (the entry id first, which the board does not need). */
export function parseTally(packed: string): SeasonTally {
  const [, closes, wins, pnlCents, roeSumBp, liquidations, slippageCloses, tieredCloses] = packed.split(',').map(Number);
  return { closes, wins, pnlCents, roeSumBp, liquidations, slippageCloses, tieredCloses };
}

export class ArenaStore {
  constructor(private readonly redis: RedisClient) {}

  /** Counts closes of one season, each once (arena-close.lua); answers how many were new. */
  async record(season: number, expiresAt: number, closes: readonly SeasonClose[]): Promise<number> {
    // one group per book (the script reads and writes each book's tally once), its closes in the order given
    const byBook = new Map<BookMember, (string | number)[]>();
    for (const { member, entryId, facts } of closes) {
      let group = byBook.get(member);
      if (!group) byBook.set(member, (group = []));
      group.push(entryId, facts.pnlCents, facts.roeBp, +facts.liquidated, +facts.slippage, +facts.tiered);
    }
    const args: (string | number)[] = [expiresAt, MIN_CLOSES];
    for (const [member, group] of byBook) args.push(member, group.length / 6, ...group);
    return arenaScripts.runInteger(this.redis, 'arena-close', { keys: [keys.arenaTallies(season), keys.arenaRanking(season)], args });
  }

  /**
   * The top of a season's ranking: `count` books by P&L and those tied with the last, with their tallies. Its cost follows `count`
   * (and the log of the ranked books), whatever the season holds.
   */
  async top(season: number, count: number): Promise<SeasonTop> {
    const ranking = keys.arenaRanking(season);
    const [books, ranked, best] = await Promise.all([
      this.redis.hlen(keys.arenaTallies(season)),
      this.redis.zcard(ranking),
      count > 0 ? this.redis.zrevrange(ranking, 0, count - 1, 'WITHSCORES') : Promise.resolve([]),
    ]);
    const members = new Set<BookMember>();
    for (let i = 0; i < best.length; i += 2) members.add(best[i]);
    if (best.length === count * 2) {
      const cut = best[best.length - 1];
      for (const tied of await this.redis.zrangebyscore(ranking, cut, cut, 'LIMIT', 0, MAX_TIED)) members.add(tied);
    }
    if (members.size === 0) return { books, ranked, candidates: [] };
    const ids = [...members];
    const packed = await this.redis.hmget(keys.arenaTallies(season), ...ids);
    const candidates = ids.flatMap((id, i) => {
      const value = packed[i];
      return value === null ? [] : [{ id, tally: parseTally(value) }];
    });
    return { books, ranked, candidates };
  }

  async saveBoard(season: number, json: string, expiresAt: number): Promise<void> {
    await this.redis.set(keys.arenaBoard(season), json, 'PXAT', expiresAt);
  }

  board(season: number): Promise<string | null> {
    return this.redis.get(keys.arenaBoard(season));
  }
}
