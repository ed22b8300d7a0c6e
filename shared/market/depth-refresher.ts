/**
 * The feed's order books of the majors: every `refreshMs`, each major's top levels from the first
 * venue (in the feed's order) whose REST depth endpoint answers, stored for fills that walk the
 * book (depth-store.ts). A round that fails for a symbol leaves its last snapshot to age out.
 */
import type { Logger } from '../core/logger.js';
import type { Clock } from '../core/clock.js';
import { MAJOR_PAIRS } from '../engine/majors.js';
import { DEPTH_LEVELS, type DepthStore } from './depth-store.js';
import type { VenueRest } from './venues/venue-rest.js';

export interface DepthRefresherDeps {
  store: DepthStore;
  rests: readonly VenueRest[];
  clock: Clock;
  logger: Logger;
  refreshMs: number;
}

export class DepthRefresher {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly deps: DepthRefresherDeps) {}

  start(): void {
    if (this.deps.refreshMs <= 0 || !this.deps.rests.some((r) => r.fetchDepth)) return;
    const tick = () => {
      this.round = this.refreshAll().finally(() => {
        if (!this.abort.signal.aborted) this.timer = setTimeout(tick, this.deps.refreshMs);
      });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.timer);
    await this.round;
  }

  /** One round: every major, in parallel. */
  async refreshAll(): Promise<void> {
    await Promise.all(MAJOR_PAIRS.map((symbol) => this.refresh(symbol)));
  }

  private async refresh(symbol: string): Promise<void> {
    for (const rest of this.deps.rests) {
      if (!rest.fetchDepth || this.abort.signal.aborted) continue;
      try {
        const depth = await rest.fetchDepth(symbol, DEPTH_LEVELS, this.abort.signal);
        if (depth.bids.length === 0 || depth.asks.length === 0) continue;
        // staleness counts from when the book arrived here
        await this.deps.store.save(symbol, { venue: rest.venue, ts: this.deps.clock.now(), bids: depth.bids, asks: depth.asks });
        return;
      } catch (error) {
        if (!this.abort.signal.aborted) this.deps.logger.debug({ err: error, symbol, venue: rest.venue }, 'depth: no book from this venue');
      }
    }
  }
}
