/**
 * Provider snapshots in Redis: one hash per resource with the last good answer (data, fetchedAt)
 * and the outcome of the last attempt (attemptAt, attemptOk, error). A failed refresh never
 * overwrites the last good answer, so readers can serve it marked stale.
 */
import type { RedisClient } from '../core/redis-client.js';
import type { Snapshot } from './snapshot-state.js';

const num = (value: string | null | undefined): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

function decode<T>(fields: (string | null)[]): Snapshot<T> {
  const [data, fetchedAt, attemptAt, attemptOk, error] = fields;
  let parsed: T | null = null;
  if (data) {
    try {
      // the store reads back only what it wrote itself
      parsed = JSON.parse(data) as T;
    } catch {
      parsed = null;
    }
  }
  return { data: parsed, fetchedAt: num(fetchedAt), attemptAt: num(attemptAt), attemptOk: attemptOk === '1', error: error || null };
}

const FIELDS = ['data', 'fetchedAt', 'attemptAt', 'attemptOk', 'error'] as const;

export class SnapshotStore {
  constructor(private readonly redis: RedisClient) {}

  async read<T>(key: string): Promise<Snapshot<T>> {
    return decode<T>(await this.redis.hmget(key, ...FIELDS));
  }

  /** A good answer: replaces the data and clears the error. ttlMs > 0 lets the key expire (on-demand resources). */
  async saveGood(key: string, data: unknown, now: number, ttlMs = 0): Promise<void> {
    const multi = this.redis.multi();
    multi.hset(key, { data: JSON.stringify(data), fetchedAt: String(now), attemptAt: String(now), attemptOk: '1', error: '' });
    if (ttlMs > 0) multi.pexpire(key, ttlMs);
    await multi.exec();
  }

  /** A failed attempt: the last good data stays. */
  async saveFailure(key: string, error: unknown, now: number): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await this.redis.hset(key, { attemptAt: String(now), attemptOk: '0', error: message.slice(0, 500) });
  }
}
