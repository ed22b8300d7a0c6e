/** Books: every book of the account with its numbers and keys, and reset. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { resetBody } from './schemas.js';
import { BOT_RESPONSES } from './responses.js';
import type { BotTradingRouteOptions } from './router.js';

export function bookRoutes({ trading }: BotTradingRouteOptions): RouteDefinition[] {
  return keyedBotRoutes('bot account', [
    {
      path: '/accounts',
      method: 'get',
      response: BOT_RESPONSES.accounts,
      summary: 'Every book (main and named books) with its numbers since reset, lifetime numbers and keys; a book-bound key sees its book',
      handle: ({ auth }: { auth: KeyContext }) => trading.books.accounts(auth),
    },
    {
      path: '/reset',
      method: 'post',
      response: BOT_RESPONSES.reset,
      summary: "Restart this key's book at 10000: archives closed trades, cancels resting orders (confirm: true)",
      body: resetBody,
      errors: ['confirm_required', 'open_positions_exist'],
      handle: ({ body, auth }: { body: { confirm?: unknown }; auth: KeyContext }) => trading.books.reset(auth, body.confirm === true),
    },
  ]);
}
