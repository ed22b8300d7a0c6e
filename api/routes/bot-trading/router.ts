/** The keyed paper-trading routes, one group: positions, resting orders, account and books, markets and fees. */
import type { Authenticate } from '../../middleware/authenticate.js';
import type { TradingServices } from '../../../shared/paper/trading-services.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { accountRoutes } from './account-router.js';
import { analyticsRoutes } from './analytics-router.js';
import { marketRoutes } from './markets-router.js';
import { orderRoutes } from './orders-router.js';
import { positionRoutes } from './positions-router.js';
import { simRoutes } from './sim-router.js';

export interface BotTradingRouteOptions {
  trading: TradingServices;
  authenticate: Authenticate;
}

/** Each sub-router (<resource>-router.ts) takes the group's options and answers its route definitions. */
export function botTradingRoutes(options: BotTradingRouteOptions): RouteGroup {
  return defineRoutes(
    [
      ...positionRoutes(options),
      ...orderRoutes(options),
      ...accountRoutes(options),
      ...marketRoutes(options),
      ...analyticsRoutes(options),
      ...simRoutes(options),
    ],
    {
      authenticate: options.authenticate,
    },
  );
}
