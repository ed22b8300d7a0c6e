/** The keyed paper-trading routes, one group: positions, resting orders, account and books, markets and fees. */
import type { Authenticate } from '../../middleware/authenticate.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { BookTrading } from '../../../shared/paper/replay/replay-journal.js';
import type { ReplayService } from '../../../shared/paper/replay/replay-service.js';
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
  /** The keys' replays: while a key's replay exists its trading calls act on the replay journal (bookTrading). */
  replay?: Pick<ReplayService, 'journal'>;
}

/** What a key's trading call acts on: its replay's journal while one exists (with the key's context on it), else the live book. */
export async function bookTrading(
  options: BotTradingRouteOptions,
  auth: KeyContext,
): Promise<{ trading: BookTrading; auth: KeyContext; journal: boolean }> {
  // the key gate tells when the key has no replay, which spares most calls a read
  const journal = auth.replay === false ? null : await options.replay?.journal(auth);
  return journal ? { trading: journal.trading, auth: journal.ctx, journal: true } : { trading: options.trading, auth, journal: false };
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
