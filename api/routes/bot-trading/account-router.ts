/** The book's numbers: account (summary) and balance. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import type { TradingServices } from '../../../shared/paper/trading-services.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { tradingRoute } from './trading-route.js';
import { BOT_RESPONSES } from './responses.js';

export function accountRoutes(trading: TradingServices, authenticate: Authenticate): RouteGroup {
  return defineRoutes(
    [
      ...tradingRoute('/account', {
        method: 'get',
        response: BOT_RESPONSES.account,
        tag: 'bot account',
        summary: 'Open positions, margin in use, unrealized and realized P&L, wins, losses, balance, equity',
        handle: ({ auth }: { auth: KeyContext }) => trading.reads.account(auth),
      }),
      ...tradingRoute('/balance', {
        method: 'get',
        response: BOT_RESPONSES.balance,
        tag: 'bot account',
        summary: 'Starting balance, balance, equity, margin in use, free margin (a scorecard: margin_enforced is false)',
        handle: ({ auth }: { auth: KeyContext }) => trading.reads.balance(auth),
      }),
    ],
    { authenticate },
  );
}
