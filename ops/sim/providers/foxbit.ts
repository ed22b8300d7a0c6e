/** Foxbit v3: GET /rest/v3/markets/{btcbrl,usdtbrl}/ticker/24hr, strings (fixtures/foxbit). */
import { brlTop, DIRECT_BRL } from './latam-market.js';
import { json, type ProviderDeps, type SimProvider } from './provider-types.js';

const FOXBIT_PATH = /^\/rest\/v3\/markets\/([a-z]+)\/ticker\/24hr$/;

export function foxbit(deps: ProviderDeps): SimProvider {
  return {
    name: 'foxbit',
    handle: ({ path }) => {
      const m = FOXBIT_PATH.exec(path);
      if (!m) return undefined;
      const asset = m[1] === 'btcbrl' ? 'btc' : m[1] === 'usdtbrl' ? 'usdt' : undefined;
      if (!asset) return json({ error: { message: 'Market not found', code: 404 } }, 404);
      const top = brlTop(deps.model, DIRECT_BRL.foxbit, asset);
      const last = (top.ask + top.bid) / 2;
      const f = (x: number): string => x.toFixed(8);
      return json({
        data: [
          {
            market_symbol: m[1],
            last_trade: { price: f(last), volume: '0.01000000', date: new Date(deps.now()).toISOString() },
            rolling_24h: {
              price_change: '0.00000000',
              price_change_percent: '0.00000000',
              volume: '12.50000000',
              trades_count: '550',
              open: f(last),
              high: f(last * 1.01),
              low: f(last * 0.99),
            },
            best: { ask: { price: f(top.ask), volume: '0.50000000' }, bid: { price: f(top.bid), volume: '0.50000000' } },
          },
        ],
      });
    },
  };
}
