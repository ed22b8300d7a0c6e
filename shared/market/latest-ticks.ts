/**
 * A process's latest aggregated price of each symbol, heard from the feed's ticks (mkt:ticks: each
 * flush publishes every moved symbol's aggregate beside storing it) on one subscriber connection,
 * so an API pod's stream serves prices to all its sockets without reading Redis for them.
 * A symbol not heard since the subscription began (a pod just started, a quiet symbol) or since it
 * was lost (what was published meanwhile never arrives) is read once from the stored quotes; while
 * the subscriber is down, every price is read.
 */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import { closeRedis } from '../redis/connection.js';
import { keys } from '../redis/keys.js';
import type { MarketStore } from './market-store.js';
import { marksOf, type FreshnessRules, type Mark, type PricePoint } from './quote-freshness.js';
import type { PriceTickMessage } from './types.js';

export interface LatestTicksDeps {
  /** A connection of its own (it is put in subscriber mode); closed on close(). */
  subscriber: RedisClient;
  /** Where a symbol not heard yet is read. */
  market: Pick<MarketStore, 'getQuotes'>;
  clock: Clock;
  freshness: FreshnessRules;
  /** A tick that is not JSON. */
  onError(error: unknown): void;
}

export class LatestTicks {
  private readonly held = new Map<string, PricePoint>();
  /** Symbols whose held price is the latest the feed stored: heard, or read while subscribed. */
  private readonly current = new Set<string>();
  private subscribed: Promise<unknown> | undefined;
  private lost = false;

  constructor(private readonly deps: LatestTicksDeps) {
    const { subscriber } = deps;
    subscriber.on('message', (_channel: string, raw: string) => this.hear(raw));
    // ioredis subscribes again on its own once back; ticks of the gap are lost, so every symbol is read once more
    subscriber.on('close', () => (this.lost = true));
    subscriber.on('ready', () => {
      if (!this.lost) return;
      this.lost = false;
      this.current.clear();
    });
  }

  /** Subscribes; resolves once ticks published from then on arrive. */
  start(): Promise<unknown> {
    // a subscribe that failed (Redis down at start) is tried again by the next call
    this.subscribed ??= this.deps.subscriber.subscribe(keys.marketTicksChannel()).catch((error: unknown) => {
      this.subscribed = undefined;
      throw error;
    });
    return this.subscribed;
  }

  /**
   * The latest price of each symbol (in the order given, null where there is none); those not
   * current are read first, in one round trip (all of them while the subscriber is down).
   */
  async prices(symbols: readonly string[]): Promise<(PricePoint | null)[]> {
    await this.start();
    const unread = symbols.filter((symbol) => this.lost || !this.current.has(symbol));
    if (unread.length > 0) {
      const stored = await this.deps.market.getQuotes(unread);
      unread.forEach((symbol, i) => {
        const quote = stored[i];
        // a symbol without a stored quote (or whose read failed) is asked again next time
        if (!quote) return;
        this.keep(symbol, quote);
        if (!this.lost) this.current.add(symbol);
      });
    }
    return symbols.map((symbol) => this.held.get(symbol) ?? null);
  }

  /** Marks as the stream's prices show them (LivePrices.marks' rules): fresh or stale; a symbol with nothing to serve is absent. */
  async marks(symbols: readonly string[]): Promise<Map<string, Mark>> {
    const unique = [...new Set(symbols)];
    return marksOf(unique, await this.prices(unique), this.deps.clock.now(), this.deps.freshness);
  }

  async close(): Promise<void> {
    await closeRedis(this.deps.subscriber);
  }

  private hear(raw: string): void {
    let tick: PriceTickMessage;
    try {
      tick = JSON.parse(raw) as PriceTickMessage;
    } catch (error) {
      this.deps.onError(error);
      return;
    }
    this.keep(tick.symbol, tick);
    this.current.add(tick.symbol);
  }

  /** Keeps the newer of what is held and `price` (a read may answer after a newer tick was heard). */
  private keep(symbol: string, price: PricePoint): void {
    const held = this.held.get(symbol);
    if (!held || held.ts <= price.ts) this.held.set(symbol, { price: price.price, ts: price.ts });
  }
}
