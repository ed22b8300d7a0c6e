/**
 * The composition root: every store and service of the domain, built once per Redis connection of a
 * process (the API role's own connection, the worker role's, the CLI's). The API app, the WebSocket
 * stream, each processor, the CLI and the demo take what they need from it; nothing else builds them.
 * Factories elsewhere follow one scheme: `create<Feature>Services(deps)` in `<feature>-services.ts`.
 */
import type { RedisClient } from './core/redis-client.js';
import { systemClock, type Clock } from './core/clock.js';
import type { Config } from './config.js';
import type { Logger } from './core/logger.js';
import { createArenaServices, type ArenaServices } from './arena/arena-services.js';
import { createBinanceServices, type BinanceServices } from './binance/binance-services.js';
import { createAiService, type AiService } from './ai/ai-services.js';
import { createDerivativesServices, type DerivativesServices } from './derivatives/derivatives-services.js';
import { DerivativesStore } from './derivatives/derivatives-store.js';
import { LiquidationStore } from './derivatives/liquidations/liquidation-store.js';
import { MacroService } from './macro/macro-service.js';
import { CoinGeckoClient } from './macro/providers/macro-providers.js';
import { providerHttp } from './http/provider-http.js';
import { DepthStore } from './market/depth-store.js';
import { MarketService } from './market/market-service.js';
import { createMarketStore, type MarketStore } from './market/market-store.js';
import { freshnessRules, type FreshnessRules } from './market/quote-freshness.js';
import type { AccountStore } from './paper/accounts/account-store.js';
import { createAccountServices, type AccountServices } from './paper/accounts/account-services.js';
import type { PlanStore } from './paper/accounts/plan-store.js';
import { FundingStore } from './paper/funding/funding-store.js';
import { createOrderSweep, type OrderSweep } from './paper/orders/order-sweep.js';
import { OrderStore } from './paper/orders/order-store.js';
import { PositionStore } from './paper/positions/position-store.js';
import { SimSettings } from './paper/sim/sim-settings.js';
import { createSweep, type Sweep } from './paper/sweep/sweep.js';
import { SweepStore } from './paper/sweep/sweep-store.js';
import { createTradingServices, type TradingServices } from './paper/trading-services.js';
import { createPushServices, type PushServices } from './push/push-services.js';
import { OutboxStore } from './push/outbox-store.js';
import { WebhookStore } from './push/webhook-store.js';
import { LatamService } from './latam/latam-service.js';
import { LatamStore } from './latam/latam-store.js';
import { ScreenerService } from './screener/screener-service.js';
import { SiteStore } from './site/site-store.js';
import { SnapshotStore } from './snapshots/snapshot-store.js';
import { QUEUES } from './queues/queue-names.js';
import { createReplayServices, type ReplayServices } from './paper/replay/replay-services.js';
import { WATCHED_SCHEDULER } from './status/status-rules.js';
import { StatusService } from './status/status-service.js';
import { StatusStore } from './status/status-store.js';
import { redisOutages } from './redis/connection.js';

export interface DomainDeps {
  config: Config;
  redis: RedisClient;
  clock?: Clock;
  /** Where what failed inside a request goes (an /ai provider's error); absent: nowhere. */
  logger?: Logger;
}

/** Every store of the domain on the process's connection, each built once. */
export interface DomainStores {
  positions: PositionStore;
  orders: OrderStore;
  funding: FundingStore;
  /** The open positions' trigger levels per symbol, for the sweep. */
  sweepIndex: SweepStore;
  accounts: AccountStore;
  plans: PlanStore;
  webhooks: WebhookStore;
  /** The macro and screener snapshots. */
  snapshots: SnapshotStore;
  latam: LatamStore;
  derivatives: DerivativesStore;
  liquidations: LiquidationStore;
  /** The site's users, sessions, sign-in links and development outbox. */
  site: SiteStore;
  /** The majors' order books the feed stores and fills walk (one in-process cache per connection). */
  depth: DepthStore;
  /** The books' simulation profiles and their seeded draws. */
  sim: SimSettings;
  /** The accounts' outboxes the relay drains, and its pass's last report (the lag metric). */
  outbox: OutboxStore;
}

export interface Domain {
  config: Config;
  redis: RedisClient;
  clock: Clock;
  /** When a stored price is fresh, stale or too old to serve (from the config). */
  freshness: FreshnessRules;
  stores: DomainStores;
  /** Prices, candles and the symbol universe as stored by the feed (history from the venues' REST on a miss). */
  marketStore: MarketStore;
  /** The market routes' reads over the store, with the freshness rules applied. */
  market: MarketService;
  /** The same reads for the service's own scheduled work (the screener): its history is not charged to the users' budget. */
  serviceMarket: MarketService;
  /** Accounts, keys, plans and books. */
  accounts: AccountServices;
  /** Paper trading: positions, orders, closes, reads, books, fees, markets, live prices. */
  trading: TradingServices;
  /** Stops, targets, trailing stops and liquidations: the candle, live and connected-book triggers. */
  sweep: Sweep;
  /** Resting orders a closed candle fills: the candle trigger's first step. */
  orderSweep: OrderSweep;
  /** The screener's last run. */
  screener: ScreenerService;
  /** Calendar, fear and greed, coins, global, trending, DeFi. */
  macro: MacroService;
  /** The Argentine and Brazilian quotes. */
  latam: LatamService;
  /** Funding, open interest, long/short, liquidations and clusters. */
  derivatives: DerivativesServices;
  /** Webhooks and the whsink test address. */
  push: PushServices;
  /** The public status page: every component's state now and its availability per day. */
  status: StatusService;
  /** The arena: season tallies the relay writes, the rollup, the board. */
  arena: ArenaServices;
  /** /ai: questions answered from a symbol's brief, within each account's daily reads. */
  ai: AiService;
  /** Replay of a past day per key: its state, journal and candles (its clock runs in the worker's replay queue). */
  replay: ReplayServices;
  /** The Binance dialect's stores: leverage, kept MARKET answers, the book's orders, listenKeys. */
  binance: BinanceServices;
}

export function createDomain(deps: DomainDeps): Domain {
  const { config, redis, clock = systemClock, logger } = deps;
  const freshness = freshnessRules(config);
  const marketStore = createMarketStore(redis, config, clock);
  const market = new MarketService(marketStore, clock, freshness);
  const serviceMarket = new MarketService(createMarketStore(redis, config, clock, 'service'), clock, freshness);
  const accounts = createAccountServices({ redis, clock, secretsKey: config.webhookSecretsKey });
  const snapshots = new SnapshotStore(redis);
  const stores: DomainStores = {
    positions: new PositionStore(redis),
    orders: new OrderStore(redis),
    funding: new FundingStore(redis),
    sweepIndex: new SweepStore(redis),
    accounts: accounts.accounts,
    plans: accounts.plans,
    webhooks: new WebhookStore(redis, config.webhookSecretsKey),
    snapshots,
    latam: new LatamStore(redis, snapshots),
    derivatives: new DerivativesStore(redis),
    liquidations: new LiquidationStore(redis, { dedupMs: config.liqDedupMs, rawMax: config.liqRawMax }),
    site: new SiteStore(redis),
    depth: new DepthStore(redis, clock),
    sim: new SimSettings(redis),
    outbox: new OutboxStore(redis),
  };
  const { positions, orders, funding } = stores;
  // the API fetches from a provider only for a CoinGecko category nobody asked for in the last 10 minutes
  const coinGecko = new CoinGeckoClient(config.providerUrls.coingecko, providerHttp(config.restTimeoutMs, 1));
  const trading = createTradingServices({
    redis,
    positionStore: positions,
    orderStore: orders,
    funding,
    depth: stores.depth,
    sim: stores.sim,
    marketStore,
    clock,
    freshness,
    bookRegistry: accounts.books,
  });
  const domain: Omit<Domain, 'ai'> = {
    config,
    redis,
    clock,
    freshness,
    stores,
    marketStore,
    market,
    serviceMarket,
    accounts,
    trading,
    sweep: createSweep({
      redis,
      positions,
      index: stores.sweepIndex,
      funding,
      market: marketStore,
      freshness,
      clock,
      streamTickMs: config.push.streamTickMs,
    }),
    orderSweep: createOrderSweep({ orders, plans: stores.plans, clock }),
    screener: new ScreenerService(stores.snapshots, clock),
    macro: new MacroService({ store: stores.snapshots, clock, coinGecko }),
    latam: new LatamService(stores.latam, clock),
    derivatives: createDerivativesServices({
      store: stores.derivatives,
      liquidationStore: stores.liquidations,
      clock,
      marketStore,
      market,
    }),
    push: createPushServices({ redis, webhooks: stores.webhooks, config, clock }),
    status: new StatusService(
      new StatusStore(redis, {
        feedVenues: config.feedVenues,
        liqVenues: config.liqVenues,
        queues: Object.values(QUEUES),
        scheduler: { queue: QUEUES.liveSweep, id: WATCHED_SCHEDULER },
      }),
      clock,
      config.statusSampleMs,
      redisOutages,
      config.statusFeedStaleMs,
    ),
    arena: createArenaServices({ redis, positions, funding, marketStore, freshness, clock }),
    replay: createReplayServices({
      redis,
      config,
      marketStore,
      freshness,
      funding,
      fees: trading.fees,
      sim: stores.sim,
      depth: stores.depth,
      clock,
    }),
    binance: createBinanceServices({ redis, positions, orders, clock }),
  };
  return {
    ...domain,
    ai: createAiService({
      ...domain.derivatives,
      market,
      screener: domain.screener,
      clock,
      redis,
      settings: config.ai,
      onProviderError: (error) => logger?.warn({ err: error }, 'ai provider failed: the built-in analyst answered'),
    }),
  };
}
