/**
 * The composition root: every store and service of the domain, built once per Redis connection of a
 * process (the API role's own connection, the worker role's, the CLI's). The API app, the WebSocket
 * stream, each processor, the CLI and the demo take what they need from it; nothing else builds them.
 * Factories elsewhere follow one scheme: `create<Feature>Services(deps)` in `<feature>-services.ts`.
 */
import type { Redis } from 'ioredis';
import { systemClock, type Clock } from './core/clock.js';
import type { Config } from './core/config.js';
import { createDerivativesServices, type DerivativesServices } from './derivatives/derivatives-services.js';
import { MacroService } from './macro/macro-service.js';
import { CoinGeckoClient } from './macro/providers/macro-providers.js';
import { providerHttp } from './http/provider-http.js';
import { MarketService } from './market/market-service.js';
import { createMarketStore, type MarketStore } from './market/market-store.js';
import { freshnessRules } from './market/quote-freshness.js';
import { createAccountServices, type AccountServices } from './paper/accounts/account-services.js';
import { createSweep, type Sweep } from './paper/sweep/sweep.js';
import { createTradingServices, type TradingServices } from './paper/trading-services.js';
import { createPushServices, type PushServices } from './push/push-services.js';
import { LatamService } from './latam/latam-service.js';
import { ScreenerService } from './screener/screener-service.js';

export interface DomainDeps {
  config: Config;
  redis: Redis;
  clock?: Clock;
}

export interface Domain {
  config: Config;
  redis: Redis;
  clock: Clock;
  /** Prices, candles and the symbol universe as stored by the feed (history from the venues' REST on a miss). */
  marketStore: MarketStore;
  /** The market routes' reads over the store, with the freshness rules applied. */
  market: MarketService;
  /** Accounts, keys, plans and books. */
  accounts: AccountServices;
  /** Paper trading: positions, orders, closes, reads, books, fees, markets, live prices. */
  trading: TradingServices;
  /** Stops, targets, trailing stops and liquidations: the candle, live and connected-book triggers. */
  sweep: Sweep;
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
}

export function createDomain(deps: DomainDeps): Domain {
  const { config, redis, clock = systemClock } = deps;
  const freshness = freshnessRules(config);
  const marketStore = createMarketStore(redis, config, clock);
  const market = new MarketService(marketStore, clock, freshness);
  const accounts = createAccountServices({ redis, clock });
  // the API fetches from a provider only for a CoinGecko category nobody asked for in the last 10 minutes
  const coinGecko = new CoinGeckoClient(config.providerUrls.coingecko, providerHttp(config.restTimeoutMs, 1));
  return {
    config,
    redis,
    clock,
    marketStore,
    market,
    accounts,
    trading: createTradingServices({ redis, marketStore, clock, freshness, bookRegistry: accounts.books }),
    sweep: createSweep({ redis, market: marketStore, freshness, clock, streamTickMs: config.push.streamTickMs }),
    screener: new ScreenerService(redis, clock),
    macro: new MacroService({ redis, clock, coinGecko }),
    latam: new LatamService(redis, clock),
    derivatives: createDerivativesServices({ redis, config, clock, marketStore, market }),
    push: createPushServices({ redis, config, clock }),
  };
}
