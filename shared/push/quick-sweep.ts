/**
 * The stream's quick sweep: while a book has a socket open, it is swept against current prices on
 * every stream tick (about 2 s) instead of waiting for the minute's candle. The sweep itself is the
 * position sweep's (the domain's SweepService.sweepBook, given to the stream by api/server.ts); this
 * file names it for the stream, and holds the per-book turn that makes one pod sweep a book per tick
 * however many pods hold its sockets.
 */
import type { Redis } from 'ioredis';
import type { BookRef } from '../paper/positions/position-types.js';
import { keys } from '../redis/keys.js';

/** Sweeps one book's open positions (stops, targets, liquidations, trailing stops) against current prices. */
export type QuickSweep = (ref: BookRef) => Promise<unknown>;

export class QuickSweepTurns {
  constructor(
    private readonly redis: Redis,
    private readonly podId: string,
  ) {}

  /** True when this pod sweeps the book this tick (no other pod took the turn in the last `ms`). */
  async take(ref: BookRef, ms: number): Promise<boolean> {
    return (await this.redis.set(keys.bookQuickSweep(ref.accountId, ref.book), this.podId, 'PX', ms, 'NX')) === 'OK';
  }
}
