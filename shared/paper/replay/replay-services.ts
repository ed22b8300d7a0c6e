/** The replay feature's services, built once per domain (shared/domain.ts). */
import type { DepthStore } from '../../market/depth-store.js';
import type { SimSettings } from '../sim/sim-settings.js';
import type { RedisClient } from '../../core/redis-client.js';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../config.js';
import type { MarketStore } from '../../market/market-store.js';
import type { FreshnessRules } from '../../market/quote-freshness.js';
import { createReplayProducer } from '../../queues/replay-producer.js';
import type { FeeSettings } from '../fees/fee-settings.js';
import type { FundingStore } from '../funding/funding-store.js';
import { ReplayService } from './replay-service.js';
import { ReplayStore } from './replay-store.js';

export interface ReplayServices {
  service: ReplayService;
  store: ReplayStore;
  /** Closes the replay queue's connection, if a start opened it. */
  close(): Promise<void>;
}

export interface ReplayDeps {
  redis: RedisClient;
  config: Config;
  marketStore: MarketStore;
  freshness: FreshnessRules;
  funding: FundingStore;
  fees: FeeSettings;
  sim: SimSettings;
  depth: DepthStore;
  clock: Clock;
}

export function createReplayServices(deps: ReplayDeps): ReplayServices {
  const store = new ReplayStore(deps.redis, deps.config.replay.candleTtlS);
  const clocks = createReplayProducer(deps.redis);
  const service = new ReplayService({
    store,
    market: deps.marketStore,
    freshness: deps.freshness,
    funding: deps.funding,
    fees: deps.fees,
    clock: deps.clock,
    clocks,
    sim: deps.sim,
    depth: deps.depth,
  });
  return { service, store, close: clocks.close };
}
