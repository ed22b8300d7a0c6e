/** The book's numbers: account (summary) and balance. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { BOT_RESPONSES } from './responses.js';
import type { BotTradingRouteOptions } from './router.js';

export function accountRoutes({ trading }: BotTradingRouteOptions): RouteDefinition[] {
  return keyedBotRoutes('bot account', [
    {
      path: '/account',
      method: 'get',
      response: BOT_RESPONSES.account,
      summary: 'Open positions, margin in use, unrealized and realized P&L, wins, losses, balance, equity',
      handle: ({ auth }: { auth: KeyContext }) => trading.reads.account(auth),
    },
    {
      path: '/balance',
      method: 'get',
      response: BOT_RESPONSES.balance,
      summary: 'Starting balance, balance, equity, margin in use, free margin (a scorecard: margin_enforced is false)',
      handle: ({ auth }: { auth: KeyContext }) => trading.reads.balance(auth),
    },
  ]);
}
