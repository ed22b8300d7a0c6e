/** Markets (class, leverage cap and taker fee per symbol) and fee venues. */
import type { AssetClass } from '../../../shared/engine/fees.js';
import type { Authenticate, KeyContext } from '../../../shared/paper/key-context.js';
import type { TradingServices } from '../../../shared/paper/trading-services.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { feesBody, marketsQuery } from './schemas.js';
import { tradingRoute } from './trading-route.js';

export function marketRoutes(trading: TradingServices, authenticate: Authenticate): RouteGroup {
  return defineRoutes(
    [
      ...tradingRoute('/markets', {
        method: 'get',
        tag: 'bot markets',
        summary: 'Tradable symbols with asset_class, max_leverage and taker_fee_pct; class filters',
        query: marketsQuery,
        example: { query: { class: 'metal' }, response: { markets: [{ symbol: 'XAUUSDT', asset_class: 'metal', max_leverage: 20, taker_fee_pct: 0.015 }], count: 1 } },
        handle: async ({ query }: { query: { class?: AssetClass } }) => {
          const markets = await trading.markets.list(query.class);
          return { markets, count: markets.length };
        },
      }),
      ...tradingRoute('/fees', {
        method: 'get',
        tag: 'bot markets',
        summary: 'The nine fee-venue schedules, the class rates, and this account fee_venue',
        handle: ({ auth }: { auth: KeyContext }) => trading.fees.view(auth.accountId),
      }),
      ...tradingRoute('/fees', {
        method: 'post',
        tag: 'bot markets',
        summary: "Set the account's fee venue (crypto perpetuals only); null clears it; open positions keep their rate",
        body: feesBody,
        errors: ['unknown_fee_venue'],
        handle: async ({ body, auth }: { body: { venue: string | null }; auth: KeyContext }) => ({
          ok: true,
          fee_venue: await trading.fees.setVenue(auth.accountId, body.venue),
        }),
      }),
    ],
    { authenticate },
  );
}
