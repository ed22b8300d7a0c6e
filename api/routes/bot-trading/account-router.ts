/** The account resource (docs tag "bot account"): the book's numbers, every book of the account, and reset. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { bookView, keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { resetBody } from './schemas.js';
import { BOT_RESPONSES } from './responses.js';
import { bookTrading, type BotTradingRouteOptions } from './router.js';

export function accountRoutes(options: BotTradingRouteOptions): RouteDefinition[] {
  const { trading } = options;
  return keyedBotRoutes('bot account', [
    bookView(
      '/account',
      BOT_RESPONSES.account,
      'Open positions, margin in use, unrealized and realized P&L, wins, losses, balance, equity',
      async (auth) => {
        const book = await bookTrading(options, auth);
        return book.trading.reads.account(book.auth);
      },
    ),
    bookView(
      '/balance',
      BOT_RESPONSES.balance,
      'Starting balance, balance, equity, margin in use, free margin (a scorecard: margin_enforced is false)',
      async (auth) => {
        const book = await bookTrading(options, auth);
        return book.trading.reads.balance(book.auth);
      },
    ),
    bookView(
      '/accounts',
      BOT_RESPONSES.accounts,
      'Every book (main and named books) with its numbers since reset, lifetime numbers and keys; a book-bound key sees its book',
      (auth) => trading.books.accounts(auth),
    ),
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
