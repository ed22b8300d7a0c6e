/** Whether a stored provider snapshot is served fresh, served stale, or not at all. Pure. */

export interface Snapshot<T> {
  /** The last good answer, null before the first one. */
  data: T | null;
  /** When the last good answer was fetched, ms. */
  fetchedAt: number | null;
  /** When the last attempt (good or not) ended, ms. */
  attemptAt: number | null;
  /** Whether that attempt succeeded. */
  attemptOk: boolean;
  error: string | null;
}

export type SnapshotState<T> =
  | { kind: 'fresh'; data: T; fetchedAt: number }
  /** The provider failed at the last attempt, or nothing refreshed it for maxAgeMs: the last good answer, marked stale. */
  | { kind: 'stale'; data: T; fetchedAt: number }
  /** No good answer yet. */
  | { kind: 'none' };

export function classifySnapshot<T>(snapshot: Snapshot<T>, now: number, maxAgeMs: number): SnapshotState<T> {
  if (snapshot.data === null || snapshot.fetchedAt === null) return { kind: 'none' };
  const failing = snapshot.attemptAt !== null && !snapshot.attemptOk && snapshot.attemptAt >= snapshot.fetchedAt;
  const old = now - snapshot.fetchedAt > maxAgeMs;
  return { kind: failing || old ? 'stale' : 'fresh', data: snapshot.data, fetchedAt: snapshot.fetchedAt };
}
