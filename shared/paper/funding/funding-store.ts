/**
 * The funding that settled at each of a symbol's funding times: written by the recorder job, read at
 * close and on reads. The times are the symbol's own (8 h, 4 h or 1 h schedules), so they are indexed
 * as recorded rather than computed from a fixed grid.
 */
import type { RedisClient } from '../../core/redis-client.js';
import type { FundingRecord } from '../../engine/funding.js';
import { keys } from '../../redis/keys.js';

/** Funding records are kept this long (positions open longer accrue nothing for older times). */
const KEEP_MS = 120 * 86_400_000;

export class FundingStore {
  constructor(private readonly redis: RedisClient) {}

  /** Records one funding time's rate and mark; a time already recorded is kept (the first recording wins). */
  async record(symbol: string, time: number, rate: number, mark: number): Promise<boolean> {
    const records = keys.fundingRecords(symbol);
    const times = keys.fundingTimes(symbol);
    const [[, added]] = (await this.redis
      .multi()
      .hsetnx(records, String(time), JSON.stringify({ rate, mark }))
      .zadd(times, 'NX', time, String(time))
      .zremrangebyscore(times, '-inf', `(${time - KEEP_MS}`)
      .pexpire(records, KEEP_MS)
      .pexpire(times, KEEP_MS)
      .exec()) ?? [[null, 0]];
    return added === 1;
  }

  /** The records for the funding times in (from, to]; a time with nothing recorded charges nothing. */
  async between(symbol: string, fromExclusive: number, toInclusive: number): Promise<FundingRecord[]> {
    if (toInclusive <= fromExclusive) return [];
    const times = await this.redis.zrangebyscore(keys.fundingTimes(symbol), `(${fromExclusive}`, toInclusive);
    if (times.length === 0) return [];
    const raws = await this.redis.hmget(keys.fundingRecords(symbol), ...times);
    const out: FundingRecord[] = [];
    raws.forEach((raw, i) => {
      const record = raw === null ? undefined : parseRecord(raw);
      if (record) out.push({ time: Number(times[i]), ...record });
    });
    return out;
  }

  /** When the recorder last finished a run (ms), or null before its first. */
  async recordedUntil(): Promise<number | null> {
    const raw = await this.redis.get(keys.fundingRecordedUntil());
    return raw === null ? null : Number(raw);
  }

  async setRecordedUntil(at: number): Promise<void> {
    await this.redis.set(keys.fundingRecordedUntil(), String(at));
  }
}

/** A malformed record charges nothing. */
function parseRecord(raw: string): { rate: number; mark: number } | undefined {
  try {
    const parsed = JSON.parse(raw) as { rate?: unknown; mark?: unknown };
    const { rate, mark } = parsed;
    if (typeof rate === 'number' && typeof mark === 'number' && Number.isFinite(rate) && Number.isFinite(mark)) return { rate, mark };
  } catch {
    // fall through
  }
  return undefined;
}
