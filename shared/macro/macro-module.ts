/** The read services of the screener, macro and regional-quote routes, built together for the API. */
import type { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { LatamService } from '../latam/latam-service.js';
import { ScreenerService } from '../screener/screener-service.js';
import { MacroService } from './macro-service.js';
import { CoinGeckoClient } from './providers/macro-providers.js';
import { providerHttp } from '../http/provider-http.js';

export interface MacroModule {
  screener: ScreenerService;
  macro: MacroService;
  latam: LatamService;
}

export function createMacroModule(redis: Redis, config: Config, clock: Clock): MacroModule {
  // the API fetches from a provider only for a CoinGecko category nobody asked for in the last 10 minutes
  const coinGecko = new CoinGeckoClient(config.providerUrls.coingecko, providerHttp(config.restTimeoutMs, 1));
  return {
    screener: new ScreenerService(redis, clock),
    macro: new MacroService({ redis, clock, coinGecko }),
    latam: new LatamService(redis, clock),
  };
}
