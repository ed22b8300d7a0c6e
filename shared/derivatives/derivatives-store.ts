/** Funding, open-interest and long/short snapshots (written by the refresh jobs, read by the API), and open-interest history. */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import type { FundingQuote } from './rest/derivative-formats.js';
import { anySlotPipeline, execPipeline } from '../redis/pipeline.js';

export type DerivativeVenue = 'binance' | 'bybit' | 'okx';

export interface FundingRow {
  /** Base coin (BTC). */
  symbol: string;
  /** Canonical pair (BTCUSDT). */
  pair: string;
  /** Mean of the exchanges' current rates, per funding interval; positive = longs pay shorts. */
  rate: number;
  ratePct: number;
  /** The soonest next funding time among the exchanges, ms. */
  nextFundingTime: number | null;
  intervalHours: number | null;
  exchanges: Partial<Record<DerivativeVenue, FundingQuote>>;
}

export interface OpenInterestRow {
  symbol: string;
  pair: string;
  /** Sum over the exchanges, USD. */
  oiUsd: number;
  exchanges: Partial<Record<DerivativeVenue, number>>;
}

export interface AccountRatioView {
  longPct: number;
  shortPct: number;
  ratio: number;
  ts: number;
}

export interface LongShortRow extends AccountRatioView {
  symbol: string;
  pair: string;
  exchanges: Partial<Record<'binance' | 'bybit', AccountRatioView>>;
}

export interface Snapshot<Row> {
  updatedAt: number;
  count: number;
  pairs: Row[];
}

export interface OpenInterestSnapshot extends Snapshot<OpenInterestRow> {
  totalUsd: number;
}

const SNAPSHOT_TTL_MS = 86_400_000;
/** Open-interest history kept per pair: the cluster model's window plus an hour. */
export const OI_HISTORY_MS = 25 * 3_600_000;

function decode<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export class DerivativesStore {
  constructor(private readonly redis: RedisClient) {}

  async saveFunding(snapshot: Snapshot<FundingRow>): Promise<void> {
    await this.redis.set(keys.derivFunding(), JSON.stringify(snapshot), 'PX', SNAPSHOT_TTL_MS);
  }

  async funding(): Promise<Snapshot<FundingRow> | null> {
    return decode(await this.redis.get(keys.derivFunding()));
  }

  /** Stores the snapshot and appends each pair's value to its history. */
  async saveOpenInterest(snapshot: OpenInterestSnapshot): Promise<void> {
    const pipeline = anySlotPipeline(this.redis);
    pipeline.set(keys.derivOpenInterest(), JSON.stringify(snapshot), 'PX', SNAPSHOT_TTL_MS);
    const ts = snapshot.updatedAt;
    for (const row of snapshot.pairs) {
      const key = keys.derivOiHistory(row.pair);
      pipeline.zadd(key, ts, `${ts}:${row.oiUsd}`);
      pipeline.zremrangebyscore(key, '-inf', ts - OI_HISTORY_MS);
      pipeline.pexpire(key, OI_HISTORY_MS + 3_600_000);
    }
    await execPipeline(pipeline);
  }

  async openInterest(): Promise<OpenInterestSnapshot | null> {
    return decode(await this.redis.get(keys.derivOpenInterest()));
  }

  /** One pair's open interest since `fromTs`, oldest first. */
  async openInterestHistory(pair: string, fromTs: number): Promise<{ ts: number; oiUsd: number }[]> {
    const members = await this.redis.zrangebyscore(keys.derivOiHistory(pair), fromTs, '+inf');
    return members
      .map((m) => {
        const [ts, usd] = m.split(':').map(Number);
        return { ts, oiUsd: usd };
      })
      .filter((p) => Number.isFinite(p.ts) && Number.isFinite(p.oiUsd));
  }

  async saveLongShort(snapshot: Snapshot<LongShortRow>): Promise<void> {
    await this.redis.set(keys.derivLongShort(), JSON.stringify(snapshot), 'PX', SNAPSHOT_TTL_MS);
  }

  async longShort(): Promise<Snapshot<LongShortRow> | null> {
    return decode(await this.redis.get(keys.derivLongShort()));
  }
}
