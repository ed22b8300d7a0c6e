/** The book's numbers: account (summary) and balance. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { botRoute } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { BOT_RESPONSES } from './responses.js';
import type { BotTradingRouteOptions } from './router.js';

export function accountRoutes({ trading }: BotTradingRouteOptions): RouteDefinition[] {
  return [
    ...botRoute('/account', {
      keyed: true,
      method: 'get',
      response: BOT_RESPONSES.account,
      tag: 'bot account',
      summary: 'Open positions, margin in use, unrealized and realized P&L, wins, losses, balance, equity',
      handle: ({ auth }: { auth: KeyContext }) => trading.reads.account(auth),
    }),
    ...botRoute('/balance', {
      keyed: true,
      method: 'get',
      response: BOT_RESPONSES.balance,
      tag: 'bot account',
      summary: 'Starting balance, balance, equity, margin in use, free margin (a scorecard: margin_enforced is false)',
      handle: ({ auth }: { auth: KeyContext }) => trading.reads.balance(auth),
    }),
  ];
}
