/**
 * Reads of a book's read models (the equity curve and the day buckets that position-close.lua writes
 * with each close) and the cache of its skill scores. Each read costs the points or days asked.
 */
import type { RedisClient } from '../../core/redis-client.js';
import type { DayBucket } from '../../engine/analytics/report-stats.js';
import type { EquityGrid, RunningTotal } from '../../engine/analytics/equity-curve.js';
import { keys } from '../../redis/keys.js';
import { inOneWrite } from '../../redis/pipeline.js';
import type { BookRef } from '../positions/position-types.js';
import { analyticsScripts } from './lua/analytics-scripts.js';

/** A cached answer and what it was computed for. */
export interface Stamped<T> {
  stamp: string;
  value: T;
}

export class AnalyticsStore {
  constructor(private readonly redis: RedisClient) {}

  /**
   * The running totals just before each time of the grid, with one more first (a step before the
   * grid's first time): count + 1 samples, as equityPoints takes them.
   */
  async curveSamples(ref: BookRef, grid: EquityGrid): Promise<RunningTotal[]> {
    const flat = (await analyticsScripts.run(this.redis, 'equity-samples', {
      keys: [keys.bookEquityCurve(ref.accountId, ref.book)],
      args: [grid.first - grid.stepMs, grid.stepMs, grid.count + 1],
    })) as number[];
    const out: RunningTotal[] = [];
    for (let i = 0; i < flat.length; i += 2) out.push({ cents: Number(flat[i]), closes: Number(flat[i + 1]) });
    return out;
  }

  /** The day buckets of the days asked (UTC day numbers), in that order; an empty one for a day without closes. */
  async dayBuckets(ref: BookRef, days: readonly number[]): Promise<DayBucket[]> {
    const replies = await Promise.all(
      inOneWrite(this.redis, () => days.map((day) => this.redis.hgetall(keys.bookDayBucket(ref.accountId, ref.book, day)))),
    );
    return replies.map((hash) => Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, Number(value)])));
  }

  /** The answer cached under `what` and the stamp it was computed for; null when none is. */
  async cached<T>(ref: BookRef, what: string): Promise<Stamped<T> | null> {
    const raw = await this.redis.get(keys.bookReadCache(ref.accountId, ref.book, what));
    return raw === null ? null : (JSON.parse(raw) as Stamped<T>);
  }

  async cache<T>(ref: BookRef, what: string, stamp: string, value: T, ttlS: number): Promise<void> {
    const entry: Stamped<T> = { stamp, value };
    await this.redis.set(keys.bookReadCache(ref.accountId, ref.book, what), JSON.stringify(entry), 'EX', ttlS);
  }
}
