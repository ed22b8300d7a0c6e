/** Regional quotes in Redis: each region's computed quote, its sources' last answers, and its hourly history. */
import type { RedisClient } from '../core/redis-client.js';
import type { SnapshotStore } from '../snapshots/snapshot-store.js';
import type { Snapshot } from '../snapshots/snapshot-state.js';
import { keys } from '../redis/keys.js';
import type { SourceBook } from './latam-sources.js';

export type Region = 'ar' | 'br';

export interface StoredQuote<Q> {
  quote: Q;
  /** Sources failing when the quote was built: their last good data was used, so the quote is stale. */
  sourcesDown: string[];
}

/** The history keeps this many days. */
export const HISTORY_DAYS = 30;
const HOUR_MS = 3_600_000;
const HISTORY_MS = HISTORY_DAYS * 24 * HOUR_MS;

export interface HistoryPoint {
  /** Start of the hour, ms. */
  t: number;
  [field: string]: number | null;
}

export class LatamStore {
  /** `snapshots`: the domain's snapshot store (each region's quote is a snapshot). */
  constructor(
    private readonly redis: RedisClient,
    private readonly snapshots: SnapshotStore,
  ) {}

  async readSources(region: Region): Promise<SourceBook> {
    const text = await this.redis.get(keys.latamSources(region));
    if (!text) return {};
    try {
      // written by saveSources only
      return JSON.parse(text) as SourceBook;
    } catch {
      return {};
    }
  }

  async saveSources(region: Region, book: SourceBook): Promise<void> {
    await this.redis.set(keys.latamSources(region), JSON.stringify(book));
  }

  readQuote<Q>(region: Region): Promise<Snapshot<StoredQuote<Q>>> {
    return this.snapshots.read<StoredQuote<Q>>(keys.latamSnapshot(region));
  }

  saveQuote<Q>(region: Region, stored: StoredQuote<Q>, now: number): Promise<void> {
    return this.snapshots.saveGood(keys.latamSnapshot(region), stored, now);
  }

  saveQuoteFailure(region: Region, error: unknown, now: number): Promise<void> {
    return this.snapshots.saveFailure(keys.latamSnapshot(region), error, now);
  }

  /** One point per hour (a second write in the same hour replaces the first); points older than 30 days are trimmed. */
  async appendHistory(region: Region, point: HistoryPoint, now: number): Promise<void> {
    const key = keys.latamHistory(region);
    const multi = this.redis.multi();
    multi.zremrangebyscore(key, point.t, point.t);
    multi.zadd(key, point.t, JSON.stringify(point));
    multi.zremrangebyscore(key, '-inf', `(${now - HISTORY_MS}`);
    await multi.exec();
  }

  /** Whether the hour that starts at `t` has its point. */
  async hasHistoryPoint(region: Region, t: number): Promise<boolean> {
    return (await this.redis.zcount(keys.latamHistory(region), t, t)) > 0;
  }

  /** The last 30 days, oldest first. */
  async readHistory(region: Region, now: number): Promise<HistoryPoint[]> {
    const members = await this.redis.zrangebyscore(keys.latamHistory(region), now - HISTORY_MS, '+inf');
    const points: HistoryPoint[] = [];
    for (const member of members) {
      try {
        points.push(JSON.parse(member) as HistoryPoint);
      } catch {
        // a member this store did not write is skipped
      }
    }
    return points;
  }
}

export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;
