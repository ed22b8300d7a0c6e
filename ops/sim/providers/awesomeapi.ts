/** AwesomeAPI: GET /json/last/USD-BRL, every value a string (fixtures/awesomeapi). */
import { brasilia, USD_BRL } from './latam-market.js';
import { json, type ProviderDeps, type SimProvider } from './provider-types.js';

export function awesomeapi(deps: ProviderDeps): SimProvider {
  return {
    name: 'awesomeapi',
    handle: ({ path }) => {
      if (path !== '/json/last/USD-BRL') return undefined;
      const now = deps.now();
      const { bid, ask } = USD_BRL;
      return json({
        USDBRL: {
          code: 'USD',
          codein: 'BRL',
          name: 'Dólar Americano/Real Brasileiro',
          high: (ask + 0.01).toFixed(4),
          low: (bid - 0.01).toFixed(4),
          varBid: '0.0015',
          pctChange: '0.03',
          bid: bid.toFixed(4),
          ask: ask.toFixed(4),
          timestamp: String(Math.floor(now / 1000)),
          create_date: brasilia(now).slice(0, 19),
        },
      });
    },
  };
}
