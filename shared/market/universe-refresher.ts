/**
 * Keeps the symbol universe current: at start and every refresh interval, fetch instruments and
 * 24h tickers from each venue, keep the top N by summed quote volume, store it and hand it to the
 * connectors. A venue that fails this round counts with its last good answer (up to an hour old);
 * when every venue fails, the stored universe stays and the refresh is retried with backoff.
 * Several feed processes share the work: a stored universe younger than half the interval is used
 * as is instead of being fetched again.
 */
import type { RedisClient } from '../core/redis-client.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { backoffDelay } from '../core/backoff.js';
import { buildUniverse } from './build-universe.js';
import type { Venue, VenueMarket } from './types.js';
import { loadUniverse, saveUniverse, type StoredUniverse } from './universe-store.js';
import type { VenueRest } from './venues/venue-rest.js';

const LAST_GOOD_MAX_AGE_MS = 3_600_000;

export interface UniverseRefresherOptions {
  redis: RedisClient;
  logger: Logger;
  clock: Clock;
  rests: readonly VenueRest[];
  size: number;
  refreshMs: number;
  /** Called with the ordered symbols whenever a universe is loaded or rebuilt. */
  onUniverse(symbols: string[]): void;
}

export class UniverseRefresher {
  private readonly abort = new AbortController();
  private readonly lastGood = new Map<Venue, { at: number; markets: VenueMarket[] }>();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: UniverseRefresherOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  private async run(): Promise<void> {
    const { logger, refreshMs } = this.options;
    let failures = 0;
    while (!this.abort.signal.aborted) {
      let ok = false;
      try {
        ok = await this.refreshOnce();
      } catch (error) {
        if (this.abort.signal.aborted) return;
        logger.error({ err: error }, 'universe refresh failed');
      }
      failures = ok ? 0 : failures + 1;
      const wait = ok ? refreshMs : Math.min(refreshMs, backoffDelay(failures - 1, 2_000, 60_000));
      try {
        await sleep(wait, undefined, { signal: this.abort.signal });
      } catch {
        return;
      }
    }
  }

  /** One round; true when a universe (fetched, or recent enough in Redis) was handed on. */
  async refreshOnce(): Promise<boolean> {
    const { redis, clock, refreshMs, logger } = this.options;
    const stored = await loadUniverse(redis);
    if (stored && stored.symbols.length > 0 && clock.now() - stored.updatedAt < refreshMs / 2) {
      this.publish(stored);
      return true;
    }
    const fetched = await this.fetch();
    if (fetched) {
      await saveUniverse(redis, fetched);
      logger.info({ symbols: fetched.symbols.length, top: fetched.symbols.slice(0, 3).map((s) => s.symbol) }, 'universe refreshed');
      this.publish(fetched);
      return true;
    }
    if (stored && stored.symbols.length > 0) {
      logger.warn({ storedAt: stored.updatedAt }, 'no venue answered: keeping the stored universe');
      this.publish(stored);
    }
    return false;
  }

  private async fetch(): Promise<StoredUniverse | null> {
    const { rests, clock, logger, size } = this.options;
    const results = await Promise.allSettled(rests.map((r) => r.fetchMarkets(this.abort.signal)));
    const now = clock.now();
    const markets: VenueMarket[] = [];
    let fresh = 0;
    results.forEach((result, i) => {
      const venue = rests[i].venue;
      if (result.status === 'fulfilled' && result.value.length > 0) {
        fresh++;
        this.lastGood.set(venue, { at: now, markets: result.value });
        markets.push(...result.value);
        return;
      }
      const reason = result.status === 'rejected' ? (result.reason as Error).message : 'no markets';
      const last = this.lastGood.get(venue);
      const usable = last && now - last.at < LAST_GOOD_MAX_AGE_MS;
      logger.warn({ venue, reason, usingLastGood: Boolean(usable) }, 'venue markets unavailable');
      if (usable) markets.push(...last.markets);
    });
    if (fresh === 0) return null;
    return { updatedAt: now, symbols: buildUniverse(markets, size) };
  }

  private publish(universe: StoredUniverse): void {
    this.options.onUniverse(universe.symbols.map((s) => s.symbol));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }
}
