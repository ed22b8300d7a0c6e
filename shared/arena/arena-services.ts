/** The arena's services, built by the domain (shared/domain.ts): the relay's recorder, the rollup and the board's reads. */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { MarketStore } from '../market/market-store.js';
import type { FreshnessRules } from '../market/quote-freshness.js';
import type { FundingStore } from '../paper/funding/funding-store.js';
import { LivePrices } from '../paper/markets/live-prices.js';
import type { PositionStore } from '../paper/positions/position-store.js';
import { ArenaRecorder, type CloseCounter } from './arena-recorder.js';
import { ArenaRollup } from './arena-rollup.js';
import { ArenaService } from './arena-service.js';
import { ArenaStore } from './arena-store.js';

export interface ArenaServices {
  store: ArenaStore;
  /** Counts the closes the outbox relay moves (workers/start-outbox-relay.ts). */
  recorder: CloseCounter;
  /** The scheduled job's work (workers/processors/arena/). */
  rollup: ArenaRollup;
  /** What GET /api/arena answers. */
  service: ArenaService;
}

export interface ArenaDeps {
  redis: RedisClient;
  positions: PositionStore;
  funding: FundingStore;
  marketStore: MarketStore;
  freshness: FreshnessRules;
  clock: Clock;
}

export function createArenaServices(deps: ArenaDeps): ArenaServices {
  const store = new ArenaStore(deps.redis);
  const prices = new LivePrices(deps.marketStore, deps.clock, deps.freshness);
  return {
    store,
    recorder: new ArenaRecorder(store),
    rollup: new ArenaRollup({ store, positions: deps.positions, prices, funding: deps.funding, clock: deps.clock }),
    service: new ArenaService(store, deps.clock),
  };
}
