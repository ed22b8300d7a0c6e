/**
 * The feed's write side. Ticks and candles in progress are buffered and written every flush
 * interval (latest per venue and symbol), followed by the aggregate of each symbol that moved:
 * the median of the venues whose price is fresh, stored and published. Closed candles are written
 * at once through a script that keeps one candle per minute by venue priority; the first store of
 * a minute calls onFirstClose (the sweep enqueue).
 */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { feedFreshVenues } from '../metrics/metrics.js';
import { keys } from '../redis/keys.js';
import { decodeVenuePrices, encodeCandle, encodeVenuePrice } from './candle-codec.js';
import { marketScripts } from './lua/market-scripts.js';
import { aggregateQuote } from './median-of-fresh.js';
import { priceSince } from './quote-freshness.js';
import { CANDLES_KEPT, VENUE_PRIORITY, type PriceTickMessage, type Quote, type VenueCandle, type VenueTick } from './types.js';
import { anySlotPipeline } from '../redis/pipeline.js';

const DAY_MS = 86_400_000;
const CANDLES_TTL_MS = 2 * DAY_MS;
const PRICES_TTL_MS = DAY_MS;
const CURRENT_TTL_MS = 10 * 60_000;
/** A closed candle this far in the future is a venue or clock error. */
const FUTURE_TOLERANCE_MS = 60_000;
/** How long stop() waits for closed candles in flight (Redis may be unreachable). */
const STOP_WAIT_MS = 5_000;
/** How often a key's expiry is pushed forward. */
const EXPIRY_REFRESH_MS = 60_000;

/** The writer's connection, log and clock, its freshness and flush settings, and who hears of a minute's first close. */
export interface MarketWriterOptions {
  redis: RedisClient;
  logger: Logger;
  clock: Clock;
  priceFreshMs: number;
  flushIntervalMs: number;
  /** Called once per symbol and minute, when the minute's first closed candle is stored. */
  onFirstClose(candle: VenueCandle): Promise<void>;
}

export type CandleStoreResult = 'first' | 'replaced' | 'kept' | 'too-old';
const RESULTS: Record<number, CandleStoreResult> = { 1: 'first', 2: 'replaced', 0: 'kept', [-1]: 'too-old' };

export class MarketWriter {
  private universe: Set<string> | undefined;
  private ticks = new Map<string, VenueTick>();
  private currents = new Map<string, VenueCandle>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly expiries = new Map<string, number>();
  /**
   * The last quote this writer stored per symbol: an unchanged price carries its start on (sinceTs). Kept here, not
   * read back: a feed that starts (or takes a lease over) counts from its first quote, and feeds that share a symbol
   * each count their own; either only delays a refusal, and costs no read per flush.
   */
  private readonly written = new Map<string, Quote>();

  constructor(private readonly options: MarketWriterOptions) {}

  /** Only symbols of the universe are written; until it is known, nothing is. */
  setUniverse(symbols: Iterable<string>): void {
    this.universe = new Set(symbols);
    for (const symbol of this.written.keys()) if (!this.universe.has(symbol)) this.written.delete(symbol);
  }

  private wanted(symbol: string): boolean {
    return this.universe?.has(symbol) ?? false;
  }

  recordTicks(ticks: readonly VenueTick[]): void {
    for (const t of ticks) if (this.wanted(t.symbol)) this.ticks.set(`${t.symbol}|${t.venue}`, t);
  }

  recordCandles(candles: readonly VenueCandle[]): void {
    for (const c of candles) {
      if (!this.wanted(c.symbol)) continue;
      if (!c.closed) {
        const key = `${c.symbol}|${c.venue}`;
        const prev = this.currents.get(key);
        if (!prev || prev.openTime <= c.openTime) this.currents.set(key, c);
        continue;
      }
      const task = this.storeClosed(c).catch((error: unknown) =>
        this.options.logger.error({ err: error, venue: c.venue, symbol: c.symbol, minute: c.openTime }, 'closed candle not stored'),
      );
      this.pending.add(task);
      void task.finally(() => this.pending.delete(task));
    }
  }

  /** Stores one closed candle; the first store of its minute calls onFirstClose. */
  async storeClosed(c: VenueCandle): Promise<CandleStoreResult> {
    if (c.openTime > this.options.clock.now() + FUTURE_TOLERANCE_MS) {
      this.options.logger.warn({ venue: c.venue, symbol: c.symbol, minute: c.openTime }, 'closed candle from the future skipped');
      return 'kept';
    }
    const reply = await marketScripts.runInteger(this.options.redis, 'candle-close', {
      keys: [keys.marketCandles1m(c.symbol)],
      args: [c.openTime, encodeCandle({ ...c, closed: true }), c.venue, CANDLES_KEPT, CANDLES_TTL_MS, ...VENUE_PRIORITY],
    });
    const result = RESULTS[reply] ?? 'kept';
    if (result === 'first') await this.options.onFirstClose(c);
    return result;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs);
    this.timer.unref();
  }

  /** Writes what is buffered; concurrent calls share one run. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce()
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'market flush failed'))
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    if (this.ticks.size === 0 && this.currents.size === 0) return;
    const ticks = [...this.ticks.values()];
    const currents = [...this.currents.values()];
    this.ticks = new Map();
    this.currents = new Map();
    const { redis, clock, priceFreshMs } = this.options;
    const now = clock.now();
    const write = anySlotPipeline(redis);
    for (const t of ticks) {
      const key = keys.marketVenuePrices(t.symbol);
      write.hset(key, t.venue, encodeVenuePrice(t, Math.min(t.ts, now)));
      if (this.expiryDue(key, now)) write.pexpire(key, PRICES_TTL_MS);
    }
    for (const c of currents) {
      const key = keys.marketCurrentCandle(c.symbol);
      write.hset(key, c.venue, encodeCandle(c));
      if (this.expiryDue(key, now)) write.pexpire(key, CURRENT_TTL_MS);
    }
    // the status page's message age: one field per venue heard since the last flush
    const heard = [...new Set(ticks.map((t) => t.venue))];
    if (heard.length > 0) write.hset(keys.feedLastMessage(), Object.fromEntries(heard.map((venue) => [venue, now])));
    const symbols = [...new Set(ticks.map((t) => t.symbol))];
    for (const s of symbols) write.hgetall(keys.marketVenuePrices(s));
    const replies = (await write.exec()) ?? [];
    const firstRead = replies.length - symbols.length;
    const publish = anySlotPipeline(redis);
    let freshVenues = 0;
    symbols.forEach((symbol, i) => {
      const [error, hash] = replies[firstRead + i] ?? [];
      if (error || !hash || typeof hash !== 'object') return;
      const quote = aggregateQuote(symbol, decodeVenuePrices(hash as Record<string, string>), now, priceFreshMs);
      if (!quote) return;
      quote.sinceTs = priceSince(this.written.get(symbol) ?? null, quote, priceFreshMs);
      this.written.set(symbol, quote);
      freshVenues = Math.max(freshVenues, quote.venues);
      const message: PriceTickMessage = { symbol, price: quote.price, venues: quote.venues, ts: quote.ts };
      publish.set(keys.marketQuote(symbol), JSON.stringify(quote), 'PX', PRICES_TTL_MS);
      publish.publish(keys.marketTicksChannel(), JSON.stringify(message));
    });
    if (symbols.length > 0) feedFreshVenues.set(freshVenues);
    if (publish.length > 0) await publish.exec();
  }

  /** TTLs only guard against symbols that left the universe: refreshing them once a minute is enough. */
  private expiryDue(key: string, now: number): boolean {
    const last = this.expiries.get(key);
    if (last !== undefined && now - last < EXPIRY_REFRESH_MS) return false;
    this.expiries.set(key, now);
    return true;
  }

  /** Stops the timer, writes what is left and waits for closed candles in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    // closed candles in flight may wait on an unreachable Redis: give them a bounded time
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_WAIT_MS);
    });
    await Promise.race([Promise.allSettled([...this.pending]), bound]);
    clearTimeout(timer);
  }
}
