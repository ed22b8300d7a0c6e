/** Resting orders (limit and stop entries, placed with /open): list, modify, cancel. */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { ModifyOrderRequest } from '../../../shared/paper/orders/order-service.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { cancelOrderBody, modifyOrderBody } from './schemas.js';
import { BOT_RESPONSES } from './responses.js';
import type { BotTradingRouteOptions } from './router.js';

const exampleOrder = {
  order_id: 'lomb3x0k2a1b2c3d4',
  type: 'limit',
  account: 'main',
  symbol: 'BTC',
  side: 'long',
  limit_price: 62000,
  margin_usd: 100,
  leverage: 10,
  sl: 60000,
  tp: null,
  trail_pct: null,
  status: 'open',
  placed_ts: 1767225630000,
  expires_ts: 1769817630000,
  fills_from_ts: 1767225660000,
};

export function orderRoutes({ trading }: BotTradingRouteOptions): RouteDefinition[] {
  return keyedBotRoutes('bot trading', [
    {
      path: '/orders',
      method: 'get',
      response: BOT_RESPONSES.orders,
      summary:
        'Resting limit and stop entries (oldest first) and the last 20 that filled, expired, were cancelled or rejected (newest first)',
      description:
        'status is open (resting), filled (position_id names the position it opened), cancelled, expired, or rejected (the market ' +
        'reached the level while the book held its cap of open positions or a position on the other side of the symbol; note says ' +
        'so).',
      example: {
        response: {
          orders: [exampleOrder],
          recent: [
            { ...exampleOrder, order_id: 'lomb3w9z1q2w3e4r5', status: 'filled', position_id: 'bpmb3x9a1b2c3d4e5', done_ts: 1767225725000 },
          ],
        },
      },
      handle: ({ auth }: { auth: KeyContext }) => trading.orders.list(auth),
    },
    {
      path: '/modify_order',
      method: 'post',
      response: BOT_RESPONSES.order,
      summary: 'Change a resting order: limit_price, sl, tp, margin_usd, leverage, trail_pct (null clears sl, tp, trail_pct)',
      description:
        'The level is checked against the market now, as at placement (limit_price_far beyond 50% from it), and sl and tp against ' +
        'the level. Candles before the next minute no longer fill the order (fills_from_ts moves).',
      body: modifyOrderBody,
      errors: [
        'order_id_required',
        'nothing_to_modify',
        'limit_price_required',
        'limit_marketable',
        'limit_price_far',
        'stop_wrong_side',
        'sl_wrong_side',
        'tp_wrong_side',
        'leverage_max',
        'no_price',
        'market_closed',
        'not_found',
        'already_done',
        'busy',
      ],
      example: {
        body: { order_id: 'lomb3x0k2a1b2c3d4', limit_price: 61500, sl: null },
        response: { ok: true, order: { ...exampleOrder, limit_price: 61500, sl: null } },
      },
      handle: ({ body, auth }: { body: ModifyOrderRequest; auth: KeyContext }) => trading.orders.modify(auth, body),
    },
    {
      path: '/cancel_order',
      method: 'post',
      response: BOT_RESPONSES.cancel,
      summary: 'Cancel a resting order (409 already_done once it filled, expired or was cancelled)',
      body: cancelOrderBody,
      errors: ['order_id_required', 'not_found', 'already_done', 'busy'],
      example: {
        body: { order_id: 'lomb3x0k2a1b2c3d4' },
        response: { ok: true, order_id: 'lomb3x0k2a1b2c3d4', status: 'cancelled', order: { ...exampleOrder, status: 'cancelled' } },
      },
      handle: ({ body, auth }: { body: { order_id: string }; auth: KeyContext }) => trading.orders.cancel(auth, body),
    },
  ]);
}
