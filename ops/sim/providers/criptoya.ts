/** CriptoYa: /api/{coin}/{fiat}/{volume} (usdt/ars, usdt/brl, btc/brl) and /api/dolar (fixtures/criptoya and fixtures/README). */
import { ARS_DOLLARS, brlTop, CRIPTOYA_BRL, USDT_ARS } from './latam-market.js';
import { json, type ProviderDeps, type SimProvider } from './provider-types.js';

const QUOTES = /^\/api\/([a-z]+)\/([a-z]+)\/(\d+(?:\.\d+)?)$/;

export function criptoya(deps: ProviderDeps): SimProvider {
  const time = (): number => Math.floor(deps.now() / 1000);
  const dolar = (): Record<string, unknown> => {
    const ts = time();
    const d = ARS_DOLLARS;
    const bond = (ci: number, h24: number) => ({
      al30: { '24hs': { price: h24, variation: 0.2, timestamp: ts }, ci: { price: ci, variation: 0.1, timestamp: ts } },
    });
    return {
      oficial: { price: d.official, variation: 0.1, timestamp: ts },
      ahorro: { ask: d.card, bid: d.official, variation: 0.1, timestamp: ts },
      tarjeta: { price: d.card, variation: 0.1, timestamp: ts },
      blue: { ask: d.blueAsk, bid: d.blueBid, variation: -0.4, timestamp: ts },
      mayorista: { price: d.wholesale, variation: 0.05, timestamp: ts },
      cripto: {
        ccb: { ask: 1214, bid: 1195, variation: 0.3, timestamp: ts },
        usdt: { ask: 1212, bid: 1190, variation: 0.2, timestamp: ts },
        usdc: { ask: 1213, bid: 1189, variation: 0.2, timestamp: ts },
      },
      mep: bond(d.mepCi, d.mep24),
      ccl: bond(d.cclCi, d.ccl24),
    };
  };
  const quotes = (coin: string, fiat: string): Record<string, unknown> | undefined => {
    const t = time();
    if (coin === 'usdt' && fiat === 'ars') return Object.fromEntries(Object.entries(USDT_ARS).map(([id, v]) => [id, { ...v, time: t }]));
    if ((coin === 'usdt' || coin === 'btc') && fiat === 'brl') {
      return Object.fromEntries(
        Object.entries(CRIPTOYA_BRL).map(([id, venue]) => {
          const top = brlTop(deps.model, venue, coin);
          return [id, { ask: top.ask, totalAsk: top.ask, bid: top.bid, totalBid: top.bid, time: t }];
        }),
      );
    }
    return undefined;
  };
  return {
    name: 'criptoya',
    handle: ({ path }) => {
      if (path === '/api/dolar') return json(dolar());
      const m = QUOTES.exec(path);
      if (!m) return undefined;
      const body = quotes(m[1], m[2]);
      return body ? json(body) : json({ error: 'Invalid coin or fiat' }, 404);
    },
  };
}
