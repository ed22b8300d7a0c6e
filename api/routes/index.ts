import type { AppServices } from '../app.js';
import type { RouteCatalog } from '../routing/route-catalog.js';
import { botMarketRoutes } from './bot-market/router.js';
import { calcRoutes } from './calc/router.js';
import { marketRoutes } from './market/router.js';
import { openApiRoutes } from './meta/router.js';
import { pingRoutes } from './ping/router.js';

/** Every route group of the API, in one list. */
export function registerRouteGroups(catalog: RouteCatalog, services: AppServices): void {
  const { config, clock, market } = services;
  catalog.add(pingRoutes(catalog, config.publicRateLimit));
  catalog.add(marketRoutes({ market, cacheMs: config.quoteCacheMs }));
  catalog.add(botMarketRoutes({ market, clock, cacheMs: config.quoteCacheMs }));
  catalog.add(calcRoutes());
  catalog.add(openApiRoutes(catalog));
}
