/**
 * The arena in Redis: each season's tallies (one hash, a field per book) and the board the rollup
 * stored. Cross-account keys outside every account's slot: each command and script touches one key.
 */
import type { Redis } from 'ioredis';
import type { CloseFacts, SeasonTally } from '../engine/arena-stats.js';
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

/** Fields per HSCAN step: the rollup reads a season in steps, so a large season never blocks Redis for long. */
const SCAN_COUNT = 5_000;

/** A tally as arena-close.lua packs it (the entry id first, which the board does not need). */
export function parseTally(packed: string): SeasonTally {
  const [, closes, wins, pnlCents, roeSumBp, liquidations, slippageCloses, tieredCloses] = packed.split(',').map(Number);
  return { closes, wins, pnlCents, roeSumBp, liquidations, slippageCloses, tieredCloses };
}

export class ArenaStore {
  constructor(private readonly redis: Redis) {}

  /** Counts closes of one season, each once (arena-close.lua); answers how many were new. */
  async record(season: number, expiresAt: number, closes: readonly SeasonClose[]): Promise<number> {
    const args: (string | number)[] = [expiresAt];
    for (const { member, entryId, facts } of closes) {
      args.push(member, entryId, facts.pnlCents, facts.roeBp, +facts.liquidated, +facts.slippage, +facts.tiered);
    }
    return arenaScripts.runInteger(this.redis, 'arena-close', { keys: [keys.arenaTallies(season)], args });
  }

  /** Every book's tally of the season, read in HSCAN steps (a field HSCAN returns twice, during a rehash, is kept once). */
  async tallies(season: number): Promise<BookTally[]> {
    const key = keys.arenaTallies(season);
    const books = new Map<BookMember, BookTally>();
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(key, cursor, 'COUNT', SCAN_COUNT);
      for (let i = 0; i + 1 < flat.length; i += 2) books.set(flat[i], { id: flat[i], tally: parseTally(flat[i + 1]) });
      cursor = next;
    } while (cursor !== '0');
    return [...books.values()];
  }

  async saveBoard(season: number, json: string, expiresAt: number): Promise<void> {
    await this.redis.set(keys.arenaBoard(season), json, 'PXAT', expiresAt);
  }

  board(season: number): Promise<string | null> {
    return this.redis.get(keys.arenaBoard(season));
  }
}
