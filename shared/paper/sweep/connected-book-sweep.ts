/**
 * The connected-book trigger: while a book has a stream socket open on an API pod, it is swept
 * against live prices every stream tick (about 2 s) instead of waiting for the minute's candle.
 * The pod says which books are connected; this schedules their sweeps: one pod per book per tick
 * however many pods hold its sockets (a turn in Redis), a few books at a time, within a share of
 * the tick so a pass never runs into the next one.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../core/redis-client.js';
import { Cadence } from '../../core/cadence.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { keys } from '../../redis/keys.js';
import type { BookRef } from '../positions/position-types.js';

export interface ConnectedBookSweepDeps {
  redis: RedisClient;
  clock: Clock;
  logger: Logger;
  /** The stream's tick: how often a connected book is swept. */
  tickMs: number;
  /** Sweeps one book against live prices (SweepService.sweepBook). */
  sweepBook(ref: BookRef): Promise<unknown>;
}

/** Books swept at once by one pod. */
const SWEEP_PARALLEL = 8;
/** Share of a tick a sweep pass may take: it ends before the next pass, and the books it did not reach go first next time. */
const SWEEP_BUDGET = 0.4;
/**
 * How long a pod's turn at a book lasts, as a share of the tick: pods, whatever their phase, take one turn per book and tick between them.
 */
const TURN_SHARE = 0.9;

export class ConnectedBookSweep {
  private readonly podId = `${process.pid}.${randomBytes(4).toString('hex')}`;
  private readonly cadence: Cadence;
  private connected: () => readonly BookRef[] = () => [];
  /** Where the next pass starts in the list of books (after the last book the previous pass reached). */
  private sweepFrom = 0;

  constructor(private readonly deps: ConnectedBookSweepDeps) {
    this.cadence = new Cadence(
      () => this.pass(),
      (error) => deps.logger.warn({ err: error }, 'connected-book sweep failed'),
    );
  }

  /** Sweeps one book now. */
  sweep(ref: BookRef): Promise<unknown> {
    return this.deps.sweepBook(ref);
  }

  /**
   * Sweeps, every tick, the books `connected` names (the pod's connected books that may hold
   * positions). The first pass comes a tick and a half from now: half a tick off the stream's price
   * tick, which starts with it on the same period, so the two never compete.
   */
  start(connected: () => readonly BookRef[]): void {
    this.connected = connected;
    this.cadence.start(this.deps.tickMs, Math.round(this.deps.tickMs * 1.5));
  }

  stop(): Promise<void> {
    return this.cadence.stop();
  }

  /** True when this pod sweeps the book this tick (no other pod took the turn in the last `ms`). */
  private async takeTurn(ref: BookRef, ms: number): Promise<boolean> {
    return (await this.deps.redis.set(keys.connectedBookSweepTurn(ref.accountId, ref.book), this.podId, 'PX', ms, 'NX')) === 'OK';
  }

  private async pass(): Promise<void> {
    const { tickMs, logger, clock } = this.deps;
    const books = this.connected();
    const first = books.length === 0 ? 0 : this.sweepFrom % books.length;
    const waiting = [...books.slice(first), ...books.slice(0, first)];
    const deadline = clock.now() + tickMs * SWEEP_BUDGET;
    let reached = 0;
    await Promise.all(
      Array.from({ length: SWEEP_PARALLEL }, async () => {
        for (let ref = waiting.shift(); ref && clock.now() < deadline; ref = waiting.shift()) {
          reached += 1;
          try {
            if (await this.takeTurn(ref, Math.floor(tickMs * TURN_SHARE))) await this.deps.sweepBook(ref);
          } catch (error) {
            logger.warn({ err: error, accountId: ref.accountId, book: ref.book }, 'connected-book sweep of a book failed');
          }
        }
      }),
    );
    this.sweepFrom = first + reached;
  }
}
