/**
 * Stores what the derivatives, screener and fear-and-greed jobs would have stored, for tests that run the
 * API without workers (the MCP tools, /ai): the snapshot routes then answer from Redis instead of 503.
 */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { DerivativesStore } from '../../shared/derivatives/derivatives-store.js';
import { MACRO_RESOURCES } from '../../shared/macro/macro-resources.js';
import { parseFearGreed } from '../../shared/macro/providers/fear-greed-format.js';
import { keys } from '../../shared/redis/keys.js';
import type { ScreenerRow } from '../../shared/screener/screener-types.js';
import { ScreenerService } from '../../shared/screener/screener-service.js';
import { SnapshotStore } from '../../shared/snapshots/snapshot-store.js';
import { systemClock } from '../../shared/core/clock.js';
import type { Candle } from '../../shared/market/types.js';
import { fixture } from './fixtures.js';
import { testMarketWriter } from './trading.js';

export interface DerivativesSeed {
  /** Funding rate per interval as a fraction (0.0001 = 0.01%). */
  fundingRate: number;
  oiUsd: number;
  longPct: number;
}

/** Funding, open interest and long/short snapshots with one row per pair (canonical names, BTCUSDT). */
export async function seedDerivatives(redis: RedisClient, rows: Record<string, DerivativesSeed>, now = Date.now()): Promise<void> {
  const store = new DerivativesStore(redis);
  const entries = Object.entries(rows).map(([pair, seed]) => ({ pair, symbol: pair.replace(/USDT$/, ''), seed }));
  const funding = entries.map(({ pair, symbol, seed }) => ({
    symbol,
    pair,
    rate: seed.fundingRate,
    ratePct: seed.fundingRate * 100,
    nextFundingTime: now + 3_600_000,
    intervalHours: 8,
    exchanges: { binance: { rate: seed.fundingRate, nextFundingTime: now + 3_600_000 } },
  }));
  const oi = entries.map(({ pair, symbol, seed }) => ({ symbol, pair, oiUsd: seed.oiUsd, exchanges: { binance: seed.oiUsd } }));
  const longShort = entries.map(({ pair, symbol, seed }) => {
    const view = { longPct: seed.longPct, shortPct: 100 - seed.longPct, ratio: seed.longPct / (100 - seed.longPct), ts: now };
    return { symbol, pair, ...view, exchanges: { binance: view } };
  });
  await store.saveFunding({ updatedAt: now, count: funding.length, pairs: funding });
  await store.saveOpenInterest({ updatedAt: now, count: oi.length, pairs: oi, totalUsd: oi.reduce((sum, row) => sum + row.oiUsd, 0) });
  await store.saveLongShort({ updatedAt: now, count: longShort.length, pairs: longShort });
}

/** A screener run of these rows on 1h candles, computed now. */
export async function seedScreener(redis: RedisClient, rows: ScreenerRow[], now = Date.now()): Promise<void> {
  const snapshots = new SnapshotStore(redis);
  await new ScreenerService(snapshots, systemClock).save({
    timeframe: '1h',
    intervalMinutes: 60,
    bars: 250,
    computedAt: now,
    universe: rows.length,
    skipped: [],
    rows,
  });
}

/** The fear-and-greed provider's answer of the fixture, as the macro job stores it. */
export async function seedFearGreed(redis: RedisClient, now = Date.now()): Promise<void> {
  await new SnapshotStore(redis).saveGood(
    keys.macroSnapshot(MACRO_RESOURCES.fearGreed),
    parseFearGreed(fixture('alternative-me/fng.json')),
    now,
  );
}

/** Closed 1-minute candles of one pair, stored as the feed stores them (Binance's). */
export async function seedCandles(redis: RedisClient, symbol: string, candles: readonly Omit<Candle, 'closed'>[]): Promise<void> {
  const writer = testMarketWriter(redis);
  for (const candle of candles) await writer.storeClosed({ ...candle, closed: true, venue: 'binance', symbol });
}

/**
 * n 1-minute candles ending at the last whole minute: each close moves by the next of `steps` (cycled) from `first`,
 * the bar spanning its open and close plus `wick` either side.
 */
export function minuteSeries(n: number, first: number, steps: readonly number[], wick = 10, now = Date.now()): Omit<Candle, 'closed'>[] {
  const lastMinute = Math.floor(now / 60_000) * 60_000 - 60_000;
  let close = first;
  return Array.from({ length: n }, (_, i) => {
    const open = close;
    close += steps[i % steps.length];
    return {
      openTime: lastMinute - (n - 1 - i) * 60_000,
      open,
      high: Math.max(open, close) + wick,
      low: Math.min(open, close) - wick,
      close,
      volume: 10,
    };
  });
}

/** n 1-minute candles rising by `step` a minute (a steady trend). */
export function trendingMinutes(n: number, first: number, step: number, now = Date.now()): Omit<Candle, 'closed'>[] {
  return minuteSeries(n, first - step, [step], Math.abs(step), now);
}
