/** The funding recorded for each funding time, per symbol: written by the recorder job, read at close and on reads. */
import type { RedisClient } from '../../core/redis-client.js';
import { fundingTimesBetween, type FundingRecord } from '../../engine/funding.js';
import { keys } from '../../redis/keys.js';

/** Funding records are kept this long (positions open longer accrue nothing for older times). */
const KEEP_MS = 120 * 86_400_000;

export class FundingStore {
  constructor(private readonly redis: RedisClient) {}

  /** Records one funding time's rate and mark; a time already recorded is kept (the first recording wins). */
  async record(symbol: string, time: number, rate: number, mark: number): Promise<boolean> {
    const key = keys.fundingRecords(symbol);
    const [[, added]] = (await this.redis
      .multi()
      .hsetnx(key, String(time), JSON.stringify({ rate, mark }))
      .pexpire(key, KEEP_MS)
      .exec()) ?? [[null, 0]];
    return added === 1;
  }

  /** The records for the funding times in (from, to]; a time with nothing recorded charges nothing. */
  async between(symbol: string, fromExclusive: number, toInclusive: number): Promise<FundingRecord[]> {
    const times = fundingTimesBetween(fromExclusive, toInclusive);
    if (times.length === 0) return [];
    const raws = await this.redis.hmget(keys.fundingRecords(symbol), ...times.map(String));
    const out: FundingRecord[] = [];
    raws.forEach((raw, i) => {
      if (raw === null) return;
      try {
        const parsed = JSON.parse(raw) as { rate?: unknown; mark?: unknown };
        if (
          typeof parsed.rate === 'number' &&
          typeof parsed.mark === 'number' &&
          Number.isFinite(parsed.rate) &&
          Number.isFinite(parsed.mark)
        ) {
          out.push({ time: times[i], rate: parsed.rate, mark: parsed.mark });
        }
      } catch {
        // a malformed record charges nothing
      }
    });
    return out;
  }
}
