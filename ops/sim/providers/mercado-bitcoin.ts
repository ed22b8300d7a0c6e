/** Mercado Bitcoin v4: GET /api/v4/tickers?symbols=BTC-BRL,USDT-BRL, `buy` the best bid, `sell` the best ask (fixtures/mercado-bitcoin). */
import { brlTop, DIRECT_BRL } from './latam-market.js';
import { json, type ProviderDeps, type SimProvider } from './provider-types.js';

export function mercadoBitcoin(deps: ProviderDeps): SimProvider {
  return {
    name: 'mercado-bitcoin',
    handle: ({ path, query }) => {
      if (path !== '/api/v4/tickers') return undefined;
      const symbols = (query.get('symbols') ?? '')
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean);
      if (symbols.length === 0) return json({ code: 'API_INVALID_PARAM', message: 'symbols is required' }, 400);
      const date = Math.floor(deps.now() / 1000);
      const rows = symbols.flatMap((pair) => {
        const asset = pair === 'BTC-BRL' ? 'btc' : pair === 'USDT-BRL' ? 'usdt' : undefined;
        if (!asset) return [];
        const top = brlTop(deps.model, DIRECT_BRL['mercado-bitcoin'], asset);
        const last = (top.ask + top.bid) / 2;
        const f = (x: number): string => x.toFixed(8);
        return [
          {
            buy: f(top.bid),
            date,
            high: f(last * 1.01),
            last: f(last),
            low: f(last * 0.99),
            open: f(last * 0.995),
            pair,
            sell: f(top.ask),
            vol: '84.00100003',
          },
        ];
      });
      return json(rows);
    },
  };
}
