import { dolarView } from '../../../shared/latam/latam-quotes.js';
import type { LatamService } from '../../../shared/latam/latam-service.js';
import { JsonTextCache, snapshotRoute, type SnapshotRoute } from '../../routing/json-text.js';
import { defineRoutes, type RouteDefinition, type RouteGroup } from '../../routing/route-catalog.js';

export interface LatamRouteOptions {
  latam: LatamService;
  cacheMs: number;
}

const common =
  'Plain JSON with ok and ts. Quotes are rebuilt every 60 s; when a provider is down the last known quote is served with stale: true ' +
  '(sourcesDown names the failing sources), never an error. Fee-inclusive prices; venues more than 20 % from the median are dropped. ' +
  "hist: the service's own hourly history, 30 days.";

/** What both quotes' examples begin with. */
const EXAMPLE_HEAD = { ok: true, ts: 1767225600000, updatedAt: 1767225590000, stale: false, sourcesDown: [] };

export function latamRoutes({ latam, cacheMs }: LatamRouteOptions): RouteGroup {
  const cache = new JsonTextCache(cacheMs);
  const quote = (route: Pick<SnapshotRoute, 'path' | 'summary' | 'description' | 'example' | 'read'>): RouteDefinition =>
    snapshotRoute(cache, { tag: 'latam', style: 'bare', ...route });
  return defineRoutes([
    quote({
      path: '/api/latam/ar',
      summary: 'USDT in Argentine pesos per exchange (CriptoYa), reference dollars and the brecha',
      description:
        "dolar: the reference dollars as { ask } ({ ask, bid } for the blue), by the original's Spanish names (oficial, blue, mep, " +
        'ccl, tarjeta) ' +
        `and the earlier English ones (official, card); brecha[k] = (mid / dolar[k].ask - 1) x 100 under the same keys. bestBuy and ` +
        `bestSell carry price beside ask and bid. ${common}`,
      example: {
        response: {
          ...EXAMPLE_HEAD,
          n: 2,
          mid: 1201.5,
          bestBuy: { id: 'lemoncash', name: 'Lemon Cash', ask: 1210, price: 1210 },
          bestSell: { id: 'belo', name: 'Belo', bid: 1192, price: 1192 },
          rows: [{ id: 'lemoncash', name: 'Lemon Cash', ask: 1210, bid: 1190, spread: 1.67 }],
          dropped: [],
          dolar: dolarView({ official: 1050, blue: 1230, mep: 1180, ccl: 1200, card: 1365, bids: { blue: 1210 } }),
          brecha: { oficial: 14.43, blue: -2.32, mep: 1.82, ccl: 0.13, tarjeta: -11.98, official: 14.43, card: -11.98 },
          hist: [{ t: 1767222000000, mid: 1200.5, ask: 1209, bid: 1191, blue: 1230, official: 1050 }],
        },
      },
      read: () => latam.ar(),
    }),
    quote({
      path: '/api/latam/br',
      summary: 'BTC and USDT in reais per exchange (Mercado Bitcoin, Foxbit, CriptoYa), the commercial dollar and the agio',
      description:
        `agio = ask / (BTC/USD x USD/BRL) - 1, percent; BTC/USD from the service's own feed; USD/BRL from AwesomeAPI, the central ` +
        `bank's PTAX when it fails. ` +
        `hist rows carry btc (= btcMid); an hour whose quote had no BTC/USD yet has no row. ${common}`,
      example: {
        response: {
          ...EXAMPLE_HEAD,
          n: 1,
          btcMid: 352000,
          usdtMid: 5.42,
          btcUsd: 65000,
          usdbrl: 5.4,
          usdbrlSource: 'awesomeapi',
          fair: 351000,
          agioMid: 0.6,
          usdtAgioMid: 0.5,
          bestBuy: {
            btc: { id: 'foxbit', name: 'Foxbit', ask: 353100, price: 353100 },
            usdt: { id: 'foxbit', name: 'Foxbit', ask: 5.427, price: 5.427 },
          },
          bestSell: {
            btc: { id: 'foxbit', name: 'Foxbit', bid: 350900, price: 350900 },
            usdt: { id: 'foxbit', name: 'Foxbit', bid: 5.413, price: 5.413 },
          },
          btc: [{ id: 'foxbit', name: 'Foxbit', ask: 353100, bid: 350900, spread: 0.63, agio: 0.6 }],
          usdt: [{ id: 'foxbit', name: 'Foxbit', ask: 5.427, bid: 5.413, spread: 0.26, agio: 0.5 }],
          dropped: { btc: [], usdt: [] },
          hist: [{ t: 1767222000000, btc: 351500, btcMid: 351500, usdtMid: 5.41, usdbrl: 5.4, btcUsd: 65000, agioMid: 0.5 }],
        },
      },
      read: () => latam.br(),
    }),
  ]);
}
