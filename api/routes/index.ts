import type { AppDeps } from '../app.js';
import type { RouteCatalog } from '../routing/route-catalog.js';
import { calcRoutes } from './calc/router.js';
import { openApiRoutes } from './meta/router.js';
import { pingRoutes } from './ping/router.js';

/** Every route group of the API, in one list. */
export function registerRouteGroups(catalog: RouteCatalog, deps: AppDeps): void {
  catalog.add(pingRoutes(catalog, deps.config.publicRateLimit));
  catalog.add(calcRoutes());
  catalog.add(openApiRoutes(catalog));
}
