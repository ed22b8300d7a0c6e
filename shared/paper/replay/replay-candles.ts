/**
 * A past UTC day's 1-minute candles of one symbol: from the exchanges' REST history (the market
 * store's history path, highest-priority venue that answers), cached in Redis for
 * REPLAY_CANDLE_TTL_S, since every replay of that day and its clock read them again.
 */
import type { MarketStore } from '../../market/market-store.js';
import type { Candle } from '../../market/types.js';
import { MINUTE_MS } from './replay-math.js';
import type { ReplayStore } from './replay-store.js';

const MINUTES_PER_DAY = 1_440;
/** Days held in memory per process (a day is 1440 candles): every trading call of a replaying key prices from them. */
const DAYS_HELD = 64;

export class ReplayCandles {
  /** Days read on this process, oldest first (a Map keeps insertion order). */
  private readonly held = new Map<string, Promise<Candle[]>>();

  constructor(
    private readonly market: MarketStore,
    private readonly store: ReplayStore,
  ) {}

  /** The day's closed candles, oldest first; [] when no exchange has any (not cached, so a later ask tries again). */
  day(symbol: string, day: string, bounds: { startTs: number; endTs: number }): Promise<Candle[]> {
    const name = `${symbol}:${day}`;
    const held = this.held.get(name);
    if (held) return held;
    const read = this.read(symbol, day, bounds);
    this.held.set(name, read);
    if (this.held.size > DAYS_HELD) this.held.delete(this.held.keys().next().value as string);
    // a failed or empty read is not held: the next ask tries again
    read.then(
      (candles) => candles.length === 0 && this.held.delete(name),
      () => this.held.delete(name),
    );
    return read;
  }

  private async read(symbol: string, day: string, bounds: { startTs: number; endTs: number }): Promise<Candle[]> {
    const cached = await this.store.cachedCandles(symbol, day);
    if (cached) return cached;
    const fetched = await this.market.fetchHistory(symbol, 1, bounds.endTs - MINUTE_MS, MINUTES_PER_DAY);
    const candles = fetched
      .filter((c) => c.openTime >= bounds.startTs && c.openTime < bounds.endTs && c.openTime % MINUTE_MS === 0)
      .sort((a, b) => a.openTime - b.openTime);
    if (candles.length > 0) await this.store.cacheCandles(symbol, day, candles);
    return candles;
  }
}
