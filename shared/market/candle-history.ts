/**
 * Candle history the store does not hold, from the exchanges' REST APIs: the highest-priority
 * venue that answers wins. When no venue serves the interval natively (or none answers for it),
 * small ranges are rebuilt from 1-minute candles.
 */
import { AppError } from '../core/errors.js';
import { aggregateCandles } from './aggregate-candles.js';
import type { Candle } from './types.js';
import { upstreamBusy } from './upstream-budget.js';
import type { VenueRest } from './venues/venue-rest.js';

const MINUTE_MS = 60_000;
const MAX_PAGES = 10;
/** Largest 1m range rebuilt into bigger candles when no venue serves the interval. */
export const MAX_REBUILT_MINUTES = 3_000;
export const MAX_HISTORY_LIMIT = 1_500;

/** Up to `limit` candles with openTime <= endMs from one venue, paging backwards. */
export async function fetchPaged(
  rest: VenueRest,
  symbol: string,
  minutes: number,
  endMs: number,
  limit: number,
  signal?: AbortSignal,
): Promise<Candle[]> {
  let out: Candle[] = [];
  let end = endMs;
  for (let page = 0; page < MAX_PAGES && out.length < limit; page++) {
    const want = Math.min(rest.maxCandlesPerRequest, limit - out.length);
    const batch = await rest.fetchCandles(symbol, minutes, end, want, signal);
    const oldest = out[0]?.openTime ?? Infinity;
    const older = batch.filter((c) => c.openTime <= end && c.openTime < oldest);
    if (older.length === 0) break;
    out = [...older, ...out];
    end = older[0].openTime - 1;
    if (batch.length < want) break;
  }
  return out.slice(-limit);
}

export interface HistoryAttempt {
  venue: string;
  error: string;
  /** Seconds until the venue's budget for calls users drive has room again (upstream-budget.ts), when that was the refusal. */
  retryAfterS?: number;
}

function attempt(venue: string, error: unknown): HistoryAttempt {
  const busy = error instanceof AppError && error.code === 'upstream_busy';
  return { venue, error: (error as Error).message, ...(busy && { retryAfterS: Number(error.details.retry_after) }) };
}

/** upstream_busy when a spent budget kept some venue from being asked, with the soonest wait; else null. */
function busyError(failures: readonly HistoryAttempt[]): AppError | null {
  const waits = failures.flatMap((failure) => (failure.retryAfterS === undefined ? [] : [failure.retryAfterS]));
  if (waits.length === 0) return null;
  return upstreamBusy(Math.min(...waits));
}

/** Tries the venues in order; the first non-empty answer wins, an all-empty round answers []. */
async function firstAnswer(
  rests: readonly VenueRest[],
  symbol: string,
  minutes: number,
  endMs: number,
  limit: number,
  failures: HistoryAttempt[],
): Promise<Candle[] | undefined> {
  let answered = false;
  for (const rest of rests) {
    if (!rest.supportsInterval(minutes)) continue;
    try {
      const candles = await fetchPaged(rest, symbol, minutes, endMs, limit);
      answered = true;
      if (candles.length > 0) return candles;
    } catch (error) {
      failures.push(attempt(rest.venue, error));
    }
  }
  // a venue its budget kept from being asked may have had candles: the others' empty answer is not the answer then
  return answered && !failures.some((failure) => failure.retryAfterS !== undefined) ? [] : undefined;
}

/**
 * `limit` candles of `intervalMinutes` ending with the one that contains endMs, oldest first.
 * Throws AppError bad_interval / upstream_busy / upstream_unavailable.
 */
export async function fetchCandleHistory(
  rests: readonly VenueRest[],
  symbol: string,
  intervalMinutes: number,
  endMs: number,
  limit: number,
): Promise<Candle[]> {
  if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1) {
    throw new AppError('bad_interval', `interval must be a whole number of minutes, got ${intervalMinutes}`);
  }
  const size = intervalMinutes * MINUTE_MS;
  const bucketStart = Math.floor(endMs / size) * size;
  const failures: HistoryAttempt[] = [];
  const native = await firstAnswer(rests, symbol, intervalMinutes, bucketStart, limit, failures);
  if (native && native.length > 0) return native;
  const minutes = intervalMinutes * limit;
  if (intervalMinutes > 1 && minutes <= MAX_REBUILT_MINUTES) {
    const lastMinute = bucketStart + size - MINUTE_MS;
    const ones = await firstAnswer(rests, symbol, 1, lastMinute, minutes, failures);
    if (ones)
      return aggregateCandles(ones, intervalMinutes)
        .filter((c) => c.openTime <= bucketStart)
        .slice(-limit);
  }
  if (native) return native;
  if (!rests.some((r) => r.supportsInterval(intervalMinutes)) && minutes > MAX_REBUILT_MINUTES) {
    throw new AppError('bad_interval', `no venue serves ${intervalMinutes}-minute candles`, { intervalMinutes });
  }
  throw busyError(failures) ?? new AppError('upstream_unavailable', 'no exchange answered for candle history', {}, { attempts: failures });
}
