/**
 * The last answer of every upstream source of a regional quote, good or failed. A quote is built
 * from each source's last good data (up to SOURCE_MAX_AGE_MS old) and is stale while any of its
 * sources is failing. Pure.
 */

export interface SourceEntry {
  /** Whether the last attempt succeeded. */
  ok: boolean;
  attemptAt: number;
  /** When `data` was fetched; null before the first good answer. */
  at: number | null;
  data: unknown;
  error: string | null;
}

export type SourceBook = Record<string, SourceEntry>;

export type Attempt = { ok: true; data: unknown } | { ok: false; error: string };

/** Data older than this is no longer used (its venues drop out of the quote). */
export const SOURCE_MAX_AGE_MS = 3_600_000;

export function recordAttempts(book: SourceBook, attempts: Record<string, Attempt>, now: number): SourceBook {
  const next: SourceBook = { ...book };
  for (const [name, attempt] of Object.entries(attempts)) {
    const previous = book[name];
    next[name] = attempt.ok
      ? { ok: true, attemptAt: now, at: now, data: attempt.data, error: null }
      : { ok: false, attemptAt: now, at: previous?.at ?? null, data: previous?.data ?? null, error: attempt.error };
  }
  return next;
}

/** The source's last good data while it is recent enough, else null. */
export function usableData<T>(book: SourceBook, name: string, now: number, maxAgeMs = SOURCE_MAX_AGE_MS): T | null {
  const entry = book[name];
  if (!entry || entry.at === null || now - entry.at > maxAgeMs) return null;
  // the book holds what the refresher stored under this name
  return entry.data as T;
}

export function failingSources(book: SourceBook, names: readonly string[]): string[] {
  return names.filter((name) => book[name] !== undefined && !book[name].ok);
}

/** Turns a settled promise into an attempt. */
export async function attempt(run: () => Promise<unknown>): Promise<Attempt> {
  try {
    return { ok: true, data: await run() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
