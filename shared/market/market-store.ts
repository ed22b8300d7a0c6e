/**
 * The read side of market data, for the API: quotes, the symbol universe, 1m candles from Redis
 * and REST history for ranges Redis does not hold. Symbols may be given in any spelling
 * canonicalSymbol() accepts; they are normalized here.
 */
import type { RedisClient } from '../core/redis-client.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';
import { keys } from '../redis/keys.js';
import { inOneWrite } from '../redis/pipeline.js';
import { canonicalSymbol } from './canonical-symbol.js';
import { decodeCandle } from './candle-codec.js';
import { MAX_HISTORY_LIMIT } from './candle-history.js';
import { HistoryWindows } from './history-windows.js';
import { isRecord, parseJsonRecord, toNumber } from './parse-utils.js';
import { CANDLES_KEPT, venueRank, type Candle, type Quote, type UniverseEntry } from './types.js';
import { decodeUniverse } from './universe-store.js';
import { isAssetClass, storedBeforeClasses } from './venue-classes.js';
import type { AssetClass } from '../engine/fees.js';
import { budgetedRest, UpstreamBudget } from './upstream-budget.js';
import { createVenueRest, type VenueRest } from './venues/venue-rest.js';

const MINUTE_MS = 60_000;

export interface CandleQuery {
  /** Oldest open time wanted (inclusive), ms. */
  fromMs?: number;
  /** Newest open time wanted (inclusive), ms. */
  toMs?: number;
  /** Most candles returned (the newest ones in range), 1..1441. */
  limit: number;
}

export interface MarketStoreOptions {
  redis: RedisClient;
  /** REST clients in venue priority order, for fetchHistory. */
  rests: readonly VenueRest[];
  historyCacheMs: number;
  /** How long an empty history window is kept (0: never). */
  emptyHistoryCacheMs?: number;
  clock?: Clock;
}

function normalize(symbol: string): string {
  return canonicalSymbol(symbol) ?? symbol;
}

export function decodeQuote(text: string | null): Quote | null {
  const raw = parseJsonRecord(text);
  if (!raw || typeof raw.symbol !== 'string') return null;
  const price = toNumber(raw.price);
  const venues = toNumber(raw.venues);
  const ts = toNumber(raw.ts);
  if (price === undefined || venues === undefined || ts === undefined) return null;
  const quote: Quote = { symbol: raw.symbol, price, venues, changePct24h: toNumber(raw.changePct24h) ?? null, ts };
  const sinceTs = toNumber(raw.sinceTs);
  if (sinceTs !== undefined) quote.sinceTs = sinceTs;
  return quote;
}

export class MarketStore {
  private readonly redis: RedisClient;
  private readonly clock: Clock;
  private readonly history: HistoryWindows;

  constructor(options: MarketStoreOptions) {
    this.redis = options.redis;
    this.clock = options.clock ?? systemClock;
    const { redis, rests, historyCacheMs, emptyHistoryCacheMs = 0 } = options;
    this.history = new HistoryWindows({ redis, rests, cacheMs: historyCacheMs, emptyCacheMs: emptyHistoryCacheMs, clock: this.clock });
  }

  /** The stored aggregate (median of fresh venues); null when none was ever written. */
  async getQuote(symbol: string): Promise<Quote | null> {
    return decodeQuote(await this.redis.get(keys.marketQuote(normalize(symbol))));
  }

  /** Quotes for many symbols in one round trip, in the order asked. */
  async getQuotes(symbols: readonly string[]): Promise<(Quote | null)[]> {
    if (symbols.length === 0) return [];
    const replies = await Promise.allSettled(
      inOneWrite(this.redis, () => symbols.map((s) => this.redis.get(keys.marketQuote(normalize(s))))),
    );
    return replies.map((reply) => (reply.status === 'fulfilled' && typeof reply.value === 'string' ? decodeQuote(reply.value) : null));
  }

  /** Whether the symbol is in the current universe. */
  async isKnownSymbol(symbol: string): Promise<boolean> {
    const canonical = canonicalSymbol(symbol);
    if (!canonical) return false;
    return (await this.redis.sismember(keys.marketUniverseSet(), canonical)) === 1;
  }

  /**
   * A symbol's asset class as its venues' metadata gives it (the universe's classes hash); one without a stored
   * class (a universe stored before classes were kept, or a symbol outside the universe) takes the fallback of
   * venue-classes.ts: a coin unless it is one of the TradFi symbols listed before.
   */
  async assetClass(symbol: string): Promise<AssetClass> {
    const stored = await this.redis.hget(keys.marketUniverseClasses(), normalize(symbol));
    return isAssetClass(stored) ? stored : storedBeforeClasses(normalize(symbol));
  }

  /** Whether a listing venue says the symbol's underlying market is closed now (universe-store.ts). */
  async isMarketClosed(symbol: string): Promise<boolean> {
    return (await this.redis.sismember(keys.marketUniverseClosed(), normalize(symbol))) === 1;
  }

  /** The universe, largest 24h quote volume first. */
  async listSymbols(): Promise<UniverseEntry[]> {
    return decodeUniverse(await this.redis.get(keys.marketUniverseList()))?.symbols ?? [];
  }

  /**
   * A symbol's 24h quote volume summed over the venues, as the universe holds it; undefined when
   * the universe does not list it. One field of a hash: an open reads this beside its price, and
   * the whole universe (tens of KB at 500 symbols) is no read for a hot path.
   */
  async quoteVolume24h(symbol: string): Promise<number | undefined> {
    const volume = await this.redis.hget(keys.marketUniverseVolumes(), normalize(symbol));
    return volume === null ? undefined : Number(volume);
  }

  /**
   * Closed 1m candles in [fromMs, toMs], oldest first, then the candle in progress (closed:false)
   * when it is in range; at most `limit` in all, the newest ones.
   */
  async getCandles(symbol: string, query: CandleQuery): Promise<Candle[]> {
    const canonical = normalize(symbol);
    const limit = Math.max(1, Math.min(Math.floor(query.limit), CANDLES_KEPT + 1));
    const min = query.fromMs ?? '-inf';
    const max = query.toMs ?? '+inf';
    const pipeline = this.redis.pipeline();
    pipeline.zrevrangebyscore(keys.marketCandles1m(canonical), max, min, 'LIMIT', 0, limit);
    pipeline.hgetall(keys.marketCurrentCandle(canonical));
    const [closedReply, currentReply] = (await pipeline.exec()) ?? [];
    if (closedReply?.[0]) throw closedReply[0];
    if (currentReply?.[0]) throw currentReply[0];
    const members = Array.isArray(closedReply?.[1]) ? (closedReply[1] as string[]) : [];
    const closed = members
      .map((m) => decodeCandle(m))
      .filter((c): c is Candle => c !== null)
      .reverse();
    const current = this.pickCurrent(currentReply?.[1], closed[closed.length - 1]?.openTime ?? -Infinity);
    const inRange =
      current &&
      (query.fromMs === undefined || current.openTime >= query.fromMs) &&
      (query.toMs === undefined || current.openTime <= query.toMs);
    const out = inRange ? [...closed, current] : closed;
    return out.slice(-limit);
  }

  /** Open time of the newest closed candle before `minute`, or null when none is kept. */
  async closedMinuteBefore(symbol: string, minute: number): Promise<number | null> {
    const reply = await this.redis.zrevrangebyscore(
      keys.marketCandles1m(normalize(symbol)),
      `(${minute}`,
      '-inf',
      'WITHSCORES',
      'LIMIT',
      0,
      1,
    );
    return reply.length === 2 ? Number(reply[1]) : null;
  }

  /** The newest candle in progress across venues (priority breaks ties), if recent and after the last closed one. */
  private pickCurrent(hash: unknown, lastClosedOpen: number): Candle | undefined {
    if (!isRecord(hash)) return undefined;
    const now = this.clock.now();
    let best: Candle | undefined;
    for (const value of Object.values(hash)) {
      const c = typeof value === 'string' ? decodeCandle(value) : null;
      if (!c || c.openTime <= lastClosedOpen || c.openTime < now - 2 * MINUTE_MS) continue;
      const better = !best || c.openTime > best.openTime || (c.openTime === best.openTime && venueRank(c.venue) < venueRank(best.venue));
      if (better) best = c;
    }
    return best ? { ...best, closed: false } : undefined;
  }

  /**
   * `limit` candles of `intervalMinutes` ending with the one containing endMs, oldest first, from the REST API of the
   * highest-priority venue that answers, through the cached aligned windows of history-windows.ts. Throws AppError
   * bad_interval, invalid_param, upstream_busy or upstream_unavailable.
   */
  async fetchHistory(symbol: string, intervalMinutes: number, endMs: number, limit: number): Promise<Candle[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_HISTORY_LIMIT) {
      throw new AppError('invalid_param', `limit must be 1..${MAX_HISTORY_LIMIT}`, { field: 'limit', max: MAX_HISTORY_LIMIT });
    }
    if (!Number.isFinite(endMs)) throw new AppError('invalid_param', 'endMs must be a time in ms', { field: 'endMs' });
    if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1) {
      throw new AppError('bad_interval', 'interval must be a whole number of minutes', { intervalMinutes });
    }
    const size = intervalMinutes * MINUTE_MS;
    return this.history.candles(normalize(symbol), intervalMinutes, Math.floor(endMs / size) * size, limit);
  }
}

/** REST clients for every venue, in priority order, from the config. */
export function createVenueRests(config: Config, clock: Clock = systemClock, attempts = 2): VenueRest[] {
  const http = { timeoutMs: config.restTimeoutMs, attempts, baseDelayMs: 250, maxDelayMs: 5_000 };
  return config.feedVenues.map((venue) => createVenueRest(venue, { baseUrl: config.venueUrls[venue].rest, http, now: () => clock.now() }));
}

/**
 * A market store. `users`: its history requests are paid from the venues' budget for calls users drive (the API's
 * routes, replays). `service`: the service's own scheduled work (the screener), which must not spend that budget, as
 * the feed does not.
 */
export function createMarketStore(
  redis: RedisClient,
  config: Config,
  clock: Clock = systemClock,
  payer: 'users' | 'service' = 'users',
): MarketStore {
  const venues = createVenueRests(config, clock);
  const budget = payer === 'users' ? new UpstreamBudget(redis, config.upstream, clock) : null;
  const rests = budget ? venues.map((rest) => budgetedRest(rest, budget)) : venues;
  return new MarketStore({ redis, rests, historyCacheMs: config.historyCacheMs, emptyHistoryCacheMs: config.upstream.emptyCacheMs, clock });
}
