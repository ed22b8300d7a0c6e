/** Markets (class, leverage cap and taker fee per symbol) and fee venues. */
import type { AssetClass } from '../../../shared/engine/fees.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { feesBody, marketsQuery } from './schemas.js';
import { BOT_RESPONSES } from './responses.js';
import type { BotTradingRouteOptions } from './router.js';

export function marketRoutes({ trading }: BotTradingRouteOptions): RouteDefinition[] {
  return keyedBotRoutes('bot markets', [
    {
      path: '/markets',
      method: 'get',
      response: BOT_RESPONSES.markets,
      summary: 'Tradable symbols with asset_class, max_leverage and taker_fee_pct; class filters',
      description:
        'max_leverage: 1000 on BTC, ETH, SOL, XRP, DOGE, HYPE and PEPE; other coins by 24 h quote volume summed over the exchanges, ' +
        '200 from $1B, 150 from $100M, else 100 ' +
        '(100 too for a symbol without volume data, a major included); stocks and forex 50, metals and indices 20. ' +
        "The class is the connected exchanges' own (their instrument metadata); unlisted_classes names the classes no connected " +
        'exchange lists now. market_closed: opens on it answer 409 market_closed now (a TradFi market its exchange calls ' +
        'closed, or whose price stood still past TRADFI_FROZEN_MS).',
      query: marketsQuery,
      example: {
        query: { class: 'crypto' },
        response: {
          markets: [
            { symbol: 'BTCUSDT', asset_class: 'crypto', max_leverage: 1000, taker_fee_pct: 0.055, market_closed: false },
            { symbol: 'ADAUSDT', asset_class: 'crypto', max_leverage: 200, taker_fee_pct: 0.055, market_closed: false },
            { symbol: 'ORDIUSDT', asset_class: 'crypto', max_leverage: 150, taker_fee_pct: 0.055, market_closed: false },
          ],
          count: 3,
          unlisted_classes: [],
        },
      },
      handle: async ({ query }: { query: { class?: AssetClass } }) => {
        const { markets, unlisted } = await trading.markets.list(query.class);
        return { markets, count: markets.length, unlisted_classes: unlisted };
      },
    },
    {
      path: '/fees',
      method: 'get',
      response: BOT_RESPONSES.fees,
      summary: "The nine fee-venue schedules, the class rates, and the fee_venue this key's opens use",
      example: {
        response: {
          fee_venue: 'hyperliquid',
          venues: [
            {
              venue: 'bybit',
              taker_pct: 0.055,
              maker_pct: 0.02,
              referral_discount_pct: 20,
              effective_taker_pct: 0.044,
              code: null,
              signup_url: null,
              source: "the exchange's published base tier",
            },
            {
              venue: 'hyperliquid',
              taker_pct: 0.045,
              maker_pct: 0.015,
              referral_discount_pct: 4,
              effective_taker_pct: 0.0432,
              code: 'MARGINPAD',
              signup_url: null,
              source: "the exchange's published base tier",
            },
          ],
          defaults: { crypto: 0.055, stock: 0.02, metal: 0.015, index: 0.015, forex: 0.008 },
          applies_to: 'crypto',
        },
      },
      handle: ({ auth }: { auth: KeyContext }) => trading.fees.view(auth),
    },
    {
      path: '/fees',
      method: 'post',
      response: BOT_RESPONSES.feesSet,
      summary:
        "Set the fee venue (crypto perpetuals only): the account's, or with a book key its book's only; null or an empty venue " +
        'clears it; open positions keep their rate',
      body: feesBody,
      example: { body: { venue: 'hyperliquid' }, response: { ok: true, fee_venue: 'hyperliquid' } },
      errors: ['unknown_fee_venue'],
      handle: async ({ body, auth }: { body: { venue: string | null }; auth: KeyContext }) => ({
        ok: true,
        fee_venue: await trading.fees.setVenue(auth, body.venue),
      }),
    },
  ]);
}
