/**
 * The collector's write side: normalized events from every connector are buffered and stored in
 * batches (one script call each), and the 24 h window is moved forward every few seconds. Only
 * symbols of the universe get per-symbol streams and minute buckets (which bounds memory); every
 * event counts toward the raw feed and the 24 h totals.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { CollectedLiquidation } from './liquidation-event.js';
import type { IngestResult, LiquidationStore } from './liquidation-store.js';

export interface LiquidationWriterOptions {
  store: LiquidationStore;
  logger: Logger;
  clock: Clock;
  /** Buffered events are written at least this often. */
  flushMs: number;
  /** A batch is written at once when it reaches this size. */
  maxBatch?: number;
  /** Most events waiting; beyond it the oldest are dropped (Redis unreachable for long). */
  maxBuffered?: number;
  expireEveryMs?: number;
}

export interface WriterStats extends IngestResult {
  received: number;
  dropped: number;
  batches: number;
}

const STOP_WAIT_MS = 5_000;

export class LiquidationWriter {
  private buffer: CollectedLiquidation[] = [];
  private universe: Set<string> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private expireTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly maxBatch: number;
  private readonly maxBuffered: number;
  readonly stats: WriterStats = { received: 0, added: 0, duplicates: 0, stale: 0, dropped: 0, batches: 0 };

  constructor(private readonly options: LiquidationWriterOptions) {
    // a batch is one script run, which holds Redis for its duration: ~500 events is a few ms
    this.maxBatch = options.maxBatch ?? 500;
    this.maxBuffered = options.maxBuffered ?? 200_000;
  }

  /** Symbols that get per-symbol storage; until the universe is known, every symbol does. */
  setUniverse(symbols: Iterable<string>): void {
    this.universe = new Set(symbols);
  }

  private readonly perSymbol = (symbol: string): boolean => this.universe?.has(symbol) ?? true;

  record(events: readonly CollectedLiquidation[]): void {
    if (events.length === 0) return;
    this.stats.received += events.length;
    for (const e of events) this.buffer.push(e);
    if (this.buffer.length > this.maxBuffered) {
      const excess = this.buffer.length - this.maxBuffered;
      this.buffer.splice(0, excess);
      this.stats.dropped += excess;
    }
    if (this.buffer.length >= this.maxBatch) void this.flush();
  }

  get pending(): number {
    return this.buffer.length;
  }

  start(): void {
    if (this.flushTimer) return;
    this.flushTimer = setInterval(() => void this.flush(), this.options.flushMs);
    this.flushTimer.unref();
    this.expireTimer = setInterval(() => void this.expire(), this.options.expireEveryMs ?? 5_000);
    this.expireTimer.unref();
  }

  /** Writes everything buffered; concurrent calls share one run, which keeps going while batches are full. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.maxBatch);
      try {
        const result = await this.options.store.ingest(batch, this.perSymbol, this.options.clock.now());
        this.stats.batches++;
        this.stats.added += result.added;
        this.stats.duplicates += result.duplicates;
        this.stats.stale += result.stale;
      } catch (error) {
        // put the batch back (once the buffer has room) and try again at the next tick
        if (this.buffer.length + batch.length <= this.maxBuffered) this.buffer.unshift(...batch);
        else this.stats.dropped += batch.length;
        this.options.logger.error({ err: error, events: batch.length }, 'liquidations not stored');
        return;
      }
    }
  }

  async expire(): Promise<void> {
    try {
      await this.options.store.expire(this.options.clock.now());
    } catch (error) {
      this.options.logger.warn({ err: error }, 'liquidation window not moved');
    }
  }

  /** Stops the timers and writes what is left (bounded wait when Redis is unreachable). */
  async stop(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.expireTimer);
    this.flushTimer = this.expireTimer = undefined;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_WAIT_MS);
    });
    await Promise.race([this.flush(), bound]);
    clearTimeout(timer);
  }
}
