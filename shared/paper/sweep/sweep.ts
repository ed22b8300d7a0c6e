/**
 * The sweep module's one entry point: createSweep builds the position sweep once and hands out its
 * three triggers, named for what starts them (README.md in this folder: who runs each, how often,
 * and which is the truth for highs and lows).
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../core/redis-client.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { LatestTicks } from '../../market/latest-ticks.js';
import type { MarketStore } from '../../market/market-store.js';
import type { FreshnessRules } from '../../market/quote-freshness.js';
import type { SweepJob } from '../../queues/job-types.js';
import type { FundingStore } from '../funding/funding-store.js';
import type { PositionStore } from '../positions/position-store.js';
import { ConnectedBookSweep } from './connected-book-sweep.js';
import { SweepService, type SweepReport } from './sweep-service.js';
import type { SweepStore } from './sweep-store.js';

export type { SweepReport } from './sweep-service.js';
export { ConnectedBookSweep } from './connected-book-sweep.js';

export interface SweepModuleDeps {
  /** For the connected-book trigger's per-book claims. */
  redis: RedisClient;
  positions: PositionStore;
  /** The open positions' trigger levels per symbol. */
  index: SweepStore;
  funding: FundingStore;
  market: MarketStore;
  freshness: FreshnessRules;
  clock: Clock;
  /** The stream's tick (config.push.streamTickMs): how often a connected book is swept. */
  streamTickMs: number;
}

/** What an API pod gives the connected-book trigger: its log and, when it hears them, the feed's ticks. */
export interface ConnectedBookPod {
  logger: Logger;
  /** The pod's latest ticks: live prices with no read per book (else the stored quotes). */
  latestTicks?: Pick<LatestTicks, 'prices'>;
}

export interface Sweep {
  /**
   * Closed 1-minute candles (the sweep queue's jobs, one per symbol and minute): the truth for highs and lows. `reqId`
   * (here and below): the job's id, on the outbox entries of what it settles (BookRef.reqId); none: no id on them.
   */
  candle: { sweep(candles: readonly SweepJob[], reqId?: string): Promise<SweepReport> };
  /** Every symbol's live price (a job scheduler, every 2 s): stops and liquidations between candles. */
  live: { sweep(reqId?: string): Promise<SweepReport> };
  /** A book with a stream socket open, every stream tick, on the API pod that holds the socket: one per pod. */
  connectedBook(pod: ConnectedBookPod): ConnectedBookSweep;
}

export function createSweep(deps: SweepModuleDeps): Sweep {
  const service = new SweepService({
    store: deps.positions,
    index: deps.index,
    funding: deps.funding,
    market: deps.market,
    freshness: deps.freshness,
    clock: deps.clock,
  });
  return {
    candle: { sweep: (candles, reqId) => service.sweepCandles(candles, reqId) },
    live: { sweep: (reqId) => service.sweepLive(reqId) },
    connectedBook: ({ logger, latestTicks }) =>
      new ConnectedBookSweep({
        redis: deps.redis,
        clock: deps.clock,
        logger,
        tickMs: deps.streamTickMs,
        // no request or job causes a connected book's sweep: each gets an id of its own for its entries
        sweepBook: (ref) => service.sweepBook(ref, `book-sweep-${randomUUID()}`, latestTicks && ((symbols) => latestTicks.prices(symbols))),
      }),
  };
}
