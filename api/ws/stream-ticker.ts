/**
 * The stream's tick (every STREAM_TICK_MS, 2 s): the marks of every open symbol of the pod's books
 * in one read, one prices message per book serialized once for all its sockets. Half a tick later,
 * the rest: the quick sweep of each connected book (one pod per book per tick, a few books at a
 * time) and, every few ticks, the sockets' heartbeat; so none of it delays a price tick or competes
 * with its fan-out.
 */
import type { Clock } from '../../shared/core/clock.js';
import type { Logger } from '../../shared/core/logger.js';
import { baseOf } from '../../shared/market/canonical-symbol.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import type { QuickSweep, QuickSweepTurns } from '../../shared/push/quick-sweep.js';
import type { BookGroup, StreamHub } from './stream-hub.js';
import { streamMessage } from './stream-messages.js';

/** Books swept at once by one pod. */
const SWEEP_PARALLEL = 8;
/** Share of a tick a sweep pass may take: it ends before the next price tick, and the books it did not reach go first next time. */
const SWEEP_BUDGET = 0.4;

export interface StreamTickerDeps {
  hub: StreamHub;
  trading: TradingServices;
  clock: Clock;
  logger: Logger;
  tickMs: number;
  quickSweep: QuickSweep;
  turns: QuickSweepTurns;
  /** Work that runs every `everyTicks` ticks, half a tick after the prices (pings, slot renewal). */
  heartbeat: { everyTicks: number; run(): void };
}

/** Runs `run` every `everyMs` after `offsetMs`; a run that overruns the period skips the next one rather than piling up. */
class Cadence {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(everyMs: number, offsetMs: number): void {
    const fire = (): void => {
      this.running ??= this.run()
        .catch(this.onError)
        .finally(() => (this.running = undefined));
    };
    this.timer = setTimeout(() => {
      this.timer = setInterval(fire, everyMs);
      fire();
    }, offsetMs);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.running;
  }
}

export class StreamTicker {
  private readonly prices: Cadence;
  private readonly sweeps: Cadence;
  private halfTicks = 0;
  /** Where the next sweep pass starts in the list of books (after the last book the previous pass reached). */
  private sweepFrom = 0;

  constructor(private readonly deps: StreamTickerDeps) {
    this.prices = new Cadence(() => this.sendPrices(), (error) => deps.logger.warn({ err: error }, 'stream: price tick failed'));
    this.sweeps = new Cadence(
      () => {
        if (++this.halfTicks % deps.heartbeat.everyTicks === 0) deps.heartbeat.run();
        return this.sweep();
      },
      (error) => deps.logger.warn({ err: error }, 'stream: quick sweep failed'),
    );
  }

  start(): void {
    this.prices.start(this.deps.tickMs, this.deps.tickMs);
    this.sweeps.start(this.deps.tickMs, Math.round(this.deps.tickMs * 1.5));
  }

  async stop(): Promise<void> {
    await Promise.all([this.prices.stop(), this.sweeps.stop()]);
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
    const { hub, trading, clock } = this.deps;
    const ts = clock.now();
    const groups = hub.groups();
    await this.refreshSymbols(groups);
    const symbols = [...new Set(groups.flatMap((group) => group.symbols ?? []))];
    if (symbols.length === 0) return;
    const marks = await trading.prices.marks(symbols);
    for (const group of groups) {
      const prices: Record<string, number> = {};
      for (const symbol of group.symbols ?? []) {
        const mark = marks.get(symbol);
        // keyed by the spec's ticker (BTC), as positions name their symbol
        if (mark) prices[baseOf(symbol)] = mark.price;
      }
      if (Object.keys(prices).length === 0) continue;
      const text = JSON.stringify(streamMessage('prices', prices, ts));
      for (const client of group.clients) client.prices(text);
    }
  }

  /**
   * The quick sweep of the books with open positions (or not read yet). The turn lasts most of a
   * tick, so pods, whatever their phase, take one turn per book and tick between them.
   */
  private async sweep(): Promise<void> {
    const { quickSweep, turns, tickMs, logger, hub, clock } = this.deps;
    const books = hub.groups().filter((group) => group.symbols === null || group.symbols.length > 0);
    const first = books.length === 0 ? 0 : this.sweepFrom % books.length;
    const waiting = [...books.slice(first), ...books.slice(0, first)];
    const deadline = clock.now() + tickMs * SWEEP_BUDGET;
    let reached = 0;
    await Promise.all(
      Array.from({ length: SWEEP_PARALLEL }, async () => {
        for (let group = waiting.shift(); group && clock.now() < deadline; group = waiting.shift()) {
          reached += 1;
          const { ref } = group;
          try {
            if (await turns.take(ref, Math.floor(tickMs * 0.9))) await quickSweep(ref);
          } catch (error) {
            logger.warn({ err: error, accountId: ref.accountId, book: ref.book }, 'stream: quick sweep of a book failed');
          }
        }
      }),
    );
    this.sweepFrom = first + reached;
  }
}
