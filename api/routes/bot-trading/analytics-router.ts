/** The read models of a book (docs tag "bot analytics"): the equity curve and the trading report. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { BOT_RESPONSES } from './responses.js';
import { equityQuery, reportQuery } from './schemas.js';
import type { BotTradingRouteOptions } from './router.js';

export function analyticsRoutes({ trading }: BotTradingRouteOptions): RouteDefinition[] {
  return keyedBotRoutes('bot analytics', [
    {
      path: '/equity',
      method: 'get',
      response: BOT_RESPONSES.equity,
      summary: 'Equity curve since the last reset: realized P&L and equity every step_min minutes over days, and equity now at mark',
      query: equityQuery,
      errors: ['days_invalid', 'step_min_invalid'],
      handle: ({ query, auth }: { query: { days: number; step_min?: number }; auth: KeyContext }) =>
        trading.analytics.equity(auth, { days: query.days, stepMin: query.step_min }),
    },
    {
      path: '/report',
      method: 'get',
      response: BOT_RESPONSES.report,
      summary: 'Trading report: totals and skill score (Free, 30 days); breakdowns and findings on paid plans (90 days)',
      query: reportQuery,
      errors: ['days_invalid', 'days_beyond_plan'],
      handle: ({ query, auth }: { query: { days: number }; auth: KeyContext }) => trading.analytics.report(auth, query),
    },
  ]);
}
