/**
 * Ids of positions (bp), resting orders (lo) and replays (rp): the prefix, the time they were made in base 36 and
 * 8 random base-36 characters; sortable by time, unguessable enough. The time also tells an index
 * reader whether a position or order it cannot find may still be on its way in (mayBeStoring).
 */
import { randomBytes } from 'node:crypto';

export type IdPrefix = 'bp' | 'lo' | 'rp';

const RANDOM_CHARS = 8;

export function timedId(prefix: IdPrefix, now: number): string {
  const random = [...randomBytes(RANDOM_CHARS)].map((b) => (b % 36).toString(36)).join('');
  return `${prefix}${now.toString(36)}${random}`;
}

/** The time a timedId was made at; null for an id of another shape. */
export function timedIdTime(prefix: IdPrefix, id: string): number | null {
  if (!id.startsWith(prefix) || id.length <= prefix.length + RANDOM_CHARS) return null;
  const stamp = id.slice(prefix.length, id.length - RANDOM_CHARS);
  if (!/^[0-9a-z]+$/.test(stamp)) return null;
  const time = parseInt(stamp, 36);
  return Number.isSafeInteger(time) ? time : null;
}

/**
 * How long after its id was made a position or order may still be on its way into its book: its
 * index entries go in just before the script that stores it (trigger-hints.ts, order-hints.ts),
 * which runs at once; a command waits out two reconnects at most (createRedis), so this is far
 * longer than any store takes.
 */
export const STORING_MS = 10 * 60_000;

/**
 * Whether a position or order that is not in its book may yet be stored: its id was made less than
 * STORING_MS before `now`. An index entry of such an id is left alone (the reader re-checks the
 * book, so it settles or fills nothing); an older one, or an id that does not tell its time, is a
 * leftover (a store that crashed before its script) and is dropped.
 */
export function mayBeStoring(prefix: IdPrefix, id: string, now: number): boolean {
  const made = timedIdTime(prefix, id);
  return made !== null && now - made < STORING_MS;
}
