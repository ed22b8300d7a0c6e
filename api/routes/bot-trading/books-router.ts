/** Books: every book of the account with its numbers and keys, and reset. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import type { TradingServices } from '../../../shared/paper/trading-services.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { resetBody } from './schemas.js';
import { tradingRoute } from './trading-route.js';
import { BOT_RESPONSES } from './responses.js';

export function bookRoutes(trading: TradingServices, authenticate: Authenticate): RouteGroup {
  return defineRoutes(
    [
      ...tradingRoute('/accounts', {
        method: 'get',
        response: BOT_RESPONSES.accounts,
        tag: 'bot account',
        summary: 'Every book (main and named books) with its numbers since reset, lifetime numbers and keys; a book-bound key sees its book',
        handle: ({ auth }: { auth: KeyContext }) => trading.books.accounts(auth),
      }),
      ...tradingRoute('/reset', {
        method: 'post',
        response: BOT_RESPONSES.reset,
        tag: 'bot account',
        summary: "Restart this key's book at 10000: archives closed trades, cancels resting orders (confirm: true)",
        body: resetBody,
        errors: ['confirm_required', 'open_positions_exist'],
        handle: ({ body, auth }: { body: { confirm?: unknown }; auth: KeyContext }) => trading.books.reset(auth, body.confirm === true),
      }),
    ],
    { authenticate },
  );
}
