/** The keyed paper-trading routes, grouped: positions, resting orders, account, markets and fees, books. */
import type { Authenticate } from '../../middleware/authenticate.js';
import type { TradingServices } from '../../../shared/paper/trading-services.js';
import type { RouteGroup } from '../../routing/route-catalog.js';
import { accountRoutes } from './account-router.js';
import { bookRoutes } from './books-router.js';
import { marketRoutes } from './markets-router.js';
import { orderRoutes } from './orders-router.js';
import { positionRoutes } from './positions-router.js';

export function botTradingRoutes(trading: TradingServices, authenticate: Authenticate): RouteGroup[] {
  return [positionRoutes(trading, authenticate), orderRoutes(trading, authenticate), accountRoutes(trading, authenticate), marketRoutes(trading, authenticate), bookRoutes(trading, authenticate)];
}
