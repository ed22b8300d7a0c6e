/**
 * REST candle history for the API, in aligned windows: the open times of one interval cut into windows of
 * WINDOW_CANDLES candles from the epoch, each fetched once (with the candle before it) and cached in Redis per
 * (symbol, interval, window). Any `end` and `limit` a caller sends map onto those few windows, so paging through the
 * past costs the exchanges one request per window and interval while the entry lives, however the calls are spread;
 * an empty window (before a listing, before any history) is kept too, for a shorter time. Concurrent asks for the same
 * window on one pod share one fetch (single flight). What a pod may fetch at all is bounded by the venues' budget for
 * calls users drive (upstream-budget.ts), so the cache holds at most what that budget fetched within its TTL.
 */
import type { Clock } from '../core/clock.js';
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import { fetchCandleHistory } from './candle-history.js';
import { parseJsonRecord } from './parse-utils.js';
import type { Candle } from './types.js';
import type { VenueRest } from './venues/venue-rest.js';

const MINUTE_MS = 60_000;
/** Candles per window: a window and the candle before it fill one 1000-candle request (Bybit's, Bitget's and OKX's ten pages). */
export const WINDOW_CANDLES = 999;

export interface HistoryWindowsOptions {
  redis: RedisClient;
  /** REST clients in venue priority order. */
  rests: readonly VenueRest[];
  /** How long a window with candles is kept (HISTORY_CACHE_MS; 0: never). */
  cacheMs: number;
  /** How long an empty window is kept (HISTORY_EMPTY_CACHE_MS; 0: never). */
  emptyCacheMs: number;
  clock: Clock;
}

/** A cached window: its candles, fetched up to the candle that opens at `end` (the window's last, or the one then current). */
interface CachedWindow {
  end: number;
  candles: Candle[];
}

function parseWindow(text: string | null): CachedWindow | null {
  const raw = parseJsonRecord(text);
  if (!raw || typeof raw.end !== 'number' || !Array.isArray(raw.candles)) return null;
  return { end: raw.end, candles: raw.candles as Candle[] };
}

export class HistoryWindows {
  /** Window fetches under way on this pod, by cache key and end: a second ask joins the first. */
  private readonly inFlight = new Map<string, Promise<Candle[]>>();

  constructor(private readonly options: HistoryWindowsOptions) {}

  /** `limit` candles of `intervalMinutes` with open times up to `alignedEnd`, oldest first, from the windows they fall in. */
  async candles(symbol: string, intervalMinutes: number, alignedEnd: number, limit: number): Promise<Candle[]> {
    const size = intervalMinutes * MINUTE_MS;
    const span = WINDOW_CANDLES * size;
    // one candle more to the left: weekly candles open on Mondays, off the epoch's grid
    const first = alignedEnd - limit * size;
    const current = Math.floor(this.options.clock.now() / size) * size;
    const reads: Promise<Candle[]>[] = [];
    for (let window = Math.floor(first / span); window <= Math.floor(alignedEnd / span); window++) {
      reads.push(this.window(symbol, intervalMinutes, window, Math.min((window + 1) * span - size, current)));
    }
    const byOpen = new Map<number, Candle>();
    for (const candle of (await Promise.all(reads)).flat()) if (candle.openTime <= alignedEnd) byOpen.set(candle.openTime, candle);
    return [...byOpen.values()].sort((a, b) => a.openTime - b.openTime).slice(-limit);
  }

  private window(symbol: string, intervalMinutes: number, window: number, end: number): Promise<Candle[]> {
    const cacheKey = keys.marketHistory(symbol, intervalMinutes, window);
    const flightKey = `${cacheKey}|${end}`;
    const joined = this.inFlight.get(flightKey);
    if (joined) return joined;
    const read = this.readOrFetch(cacheKey, symbol, intervalMinutes, end).finally(() => this.inFlight.delete(flightKey));
    this.inFlight.set(flightKey, read);
    return read;
  }

  private async readOrFetch(cacheKey: string, symbol: string, intervalMinutes: number, end: number): Promise<Candle[]> {
    const { redis, rests, cacheMs, emptyCacheMs } = this.options;
    const caching = cacheMs > 0 || emptyCacheMs > 0;
    if (caching) {
      const cached = parseWindow(await redis.get(cacheKey));
      // the window still open is fetched again once a newer candle opened in it
      if (cached && cached.end >= end) return cached.candles;
    }
    const candles = await fetchCandleHistory(rests, symbol, intervalMinutes, end, WINDOW_CANDLES + 1);
    const ttl = candles.length > 0 ? cacheMs : emptyCacheMs;
    if (ttl > 0) await redis.set(cacheKey, JSON.stringify({ end, candles } satisfies CachedWindow), 'PX', ttl);
    return candles;
  }
}
