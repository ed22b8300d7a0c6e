/** The paper-trading services the bot routes and the stream call, built by the domain (shared/domain.ts). */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { MarketStore } from '../market/market-store.js';
import type { FreshnessRules } from '../market/quote-freshness.js';
import type { BookRegistry } from './accounts/book-registry.js';
import { AnalyticsService } from './analytics/analytics-service.js';
import { AnalyticsStore } from './analytics/analytics-store.js';
import { ChangeGate } from './change-gate.js';
import type { DepthStore } from '../market/depth-store.js';
import { FeeSettings } from './fees/fee-settings.js';
import type { FundingStore } from './funding/funding-store.js';
import { LivePrices } from './markets/live-prices.js';
import { MarketCatalog } from './markets/market-catalog.js';
import { OrderService } from './orders/order-service.js';
import type { OrderStore } from './orders/order-store.js';
import { BookService } from './positions/book-service.js';
import { CloseService } from './positions/close-service.js';
import { IncreaseService } from './positions/increase-service.js';
import { IncreaseStore } from './positions/increase-store.js';
import type { PositionDeps } from './positions/position-deps.js';
import { PositionReads } from './positions/position-reads.js';
import { PositionService } from './positions/position-service.js';
import type { PositionStore } from './positions/position-store.js';
import { SimService } from './sim/sim-service.js';
import type { SimSettings } from './sim/sim-settings.js';

export interface TradingServices {
  positions: PositionService;
  /** Limit and stop entries: list, modify, cancel (placed through positions.open). */
  orders: OrderService;
  closes: CloseService;
  /** Adding to an open position (the Binance dialect's one-way netting). */
  increases: IncreaseService;
  reads: PositionReads;
  books: BookService;
  fees: FeeSettings;
  markets: MarketCatalog;
  prices: LivePrices;
  /** The equity curve and the report. */
  analytics: AnalyticsService;
  /** The books' simulation profiles: /sim and its view /realism. */
  sim: SimService;
}

export interface TradingDeps {
  /** For the fee settings and the analytics reads. */
  redis: RedisClient;
  positionStore: PositionStore;
  orderStore: OrderStore;
  funding: FundingStore;
  /** The majors' order books the feed stores (the fill model's depth). */
  depth: DepthStore;
  sim: SimSettings;
  marketStore: MarketStore;
  clock: Clock;
  freshness: FreshnessRules;
  /** The account's books and keys (accounts listing); without it: 'main' plus the books that traded. */
  bookRegistry?: BookRegistry;
}

export function createTradingServices(deps: TradingDeps): TradingServices {
  const { positionStore: store, funding, depth, sim } = deps;
  const prices = new LivePrices(deps.marketStore, deps.clock, deps.freshness);
  const fees = new FeeSettings(deps.redis);
  // one gate for positions and orders: their keys differ
  const changes = new ChangeGate();
  const positionDeps: PositionDeps = { store, prices, funding, fees, clock: deps.clock, changes, sim, depth };
  const orders = new OrderService({ store: deps.orderStore, prices, fees, clock: deps.clock, changes, sim });
  const reads = new PositionReads(positionDeps);
  const analyticsStore = new AnalyticsStore(deps.redis);
  return {
    positions: new PositionService(positionDeps, orders),
    orders,
    closes: new CloseService(positionDeps),
    increases: new IncreaseService(positionDeps, new IncreaseStore(deps.redis)),
    reads,
    books: new BookService(positionDeps, deps.bookRegistry),
    fees,
    markets: new MarketCatalog(deps.marketStore, prices),
    prices,
    analytics: new AnalyticsService({ store: analyticsStore, positions: store, reads, marketStore: deps.marketStore, clock: deps.clock }),
    sim: new SimService(sim),
  };
}
