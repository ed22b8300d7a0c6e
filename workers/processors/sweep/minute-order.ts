/**
 * A symbol's minutes in order across worker processes. candleRunner orders the candles one process
 * is given; with several processes (or a job waiting for its retry) a symbol's next minute could
 * otherwise be swept on one process while its previous minute is still to be swept on another, and
 * move a trailing stop or fill an order before that minute was checked against them. So a candle
 * waits until the sweep job of its symbol's previous closed candle has finished: completed, or
 * failed for good. A previous candle without a job (never enqueued, or removed after its hour)
 * does not hold it back.
 */
import type { Queue } from 'bullmq';
import type { MarketStore } from '../../../shared/market/market-store.js';
import { sweepJobId, type SweepJob } from '../../../shared/queues/job-types.js';

const MINUTE_MS = 60_000;

/** What candleRunner asks before it sweeps a candle, and tells after. */
export interface MinuteGate {
  /** Whether an earlier minute of the candle's symbol is still to be swept. */
  mustWait(candle: SweepJob): Promise<boolean>;
  /** The candle was swept in this process. */
  swept(candle: SweepJob): void;
}

export class MinuteOrder implements MinuteGate {
  /**
   * The newest minute of each symbol this process swept: the next minute may run here before
   * BullMQ has marked that one's job completed.
   */
  private readonly sweptHere = new Map<string, number>();

  constructor(
    private readonly market: Pick<MarketStore, 'closedMinuteBefore'>,
    private readonly jobs: Pick<Queue<SweepJob>, 'getJob'>,
  ) {}

  async mustWait(candle: SweepJob): Promise<boolean> {
    const here = this.sweptHere.get(candle.symbol) ?? -Infinity;
    // A minute swept here waited for the one before it, and that one for its own: once the minute
    // just before was swept here (one worker process's every minute but its first), nothing is left.
    if (here >= candle.minute - MINUTE_MS) return false;
    const previous = await this.market.closedMinuteBefore(candle.symbol, candle.minute);
    if (previous === null || previous <= here) return false;
    const job = await this.jobs.getJob(sweepJobId(candle.symbol, previous));
    return job !== undefined && job.finishedOn === undefined;
  }

  swept(candle: SweepJob): void {
    if (candle.minute > (this.sweptHere.get(candle.symbol) ?? -Infinity)) this.sweptHere.set(candle.symbol, candle.minute);
  }
}
