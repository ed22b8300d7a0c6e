/**
 * The stream's tick (every STREAM_TICK_MS, 2 s): the marks of every open symbol of the pod's books
 * from the latest ticks the pod heard (shared/market/latest-ticks.ts), one prices message per book
 * serialized once for all its sockets. Every few ticks, half a tick after the prices, the sockets'
 * heartbeat, so it never delays a price tick. The connected books' sweep is the sweep module's
 * (shared/paper/sweep): the stream only tells it which books are connected.
 */
import { Cadence } from '../../shared/core/cadence.js';
import type { Clock } from '../../shared/core/clock.js';
import type { Logger } from '../../shared/core/logger.js';
import { baseOf } from '../../shared/market/canonical-symbol.js';
import type { LatestTicks } from '../../shared/market/latest-ticks.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import type { BookGroup, StreamHub } from './stream-hub.js';
import { streamMessage } from './stream-messages.js';

export interface StreamTickerDeps {
  hub: StreamHub;
  trading: TradingServices;
  ticks: LatestTicks;
  clock: Clock;
  logger: Logger;
  tickMs: number;
  /** Work that runs every `everyTicks` ticks, half a tick after the prices (pings, slot renewal). */
  heartbeat: { everyTicks: number; run(): void };
}

export class StreamTicker {
  private readonly prices: Cadence;
  private readonly heartbeat: Cadence;

  constructor(private readonly deps: StreamTickerDeps) {
    this.prices = new Cadence(
      () => this.sendPrices(),
      (error) => deps.logger.warn({ err: error }, 'stream: price tick failed'),
    );
    this.heartbeat = new Cadence(
      async () => deps.heartbeat.run(),
      (error) => deps.logger.warn({ err: error }, 'stream: heartbeat failed'),
    );
  }

  start(): void {
    const { tickMs, heartbeat } = this.deps;
    this.prices.start(tickMs, tickMs);
    this.heartbeat.start(tickMs * heartbeat.everyTicks, Math.round(tickMs * (heartbeat.everyTicks + 0.5)));
  }

  async stop(): Promise<void> {
    await Promise.all([this.prices.stop(), this.heartbeat.stop()]);
  }

  /** Reads the open symbols of books not read yet, or changed since. */
  private async refreshSymbols(groups: BookGroup[]): Promise<void> {
    await Promise.all(
      groups
        .filter((group) => group.symbols === null)
        .map(async (group) => {
          const changes = group.changes;
          const symbols = await this.deps.trading.reads.openSymbols(group.ref);
          // an event that arrived meanwhile may have changed them again: read next tick
          if (group.changes === changes) group.symbols = symbols;
        }),
    );
  }

  private async sendPrices(): Promise<void> {
    const { hub, ticks, clock } = this.deps;
    const ts = clock.now();
    const groups = hub.groups();
    await this.refreshSymbols(groups);
    const symbols = [...new Set(groups.flatMap((group) => group.symbols ?? []))];
    if (symbols.length === 0) return;
    const marks = await ticks.marks(symbols);
    for (const group of groups) {
      const prices: Record<string, number> = {};
      for (const symbol of group.symbols ?? []) {
        const mark = marks.get(symbol);
        // keyed by the spec's ticker (BTC), as positions name their symbol
        if (mark) prices[baseOf(symbol)] = mark.price;
      }
      if (Object.keys(prices).length === 0) continue;
      const text = JSON.stringify(streamMessage('prices', prices, ts));
      for (const client of group.sockets) client.prices(text);
    }
  }
}
