import type { ServerResponse } from 'node:http';
import type { MacroService } from '../../../shared/macro/macro-service.js';
import { JsonTextCache, sendEnvelopeText } from '../../routing/json-text.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { calendarQuery, coinsQuery } from './schemas.js';

export interface MacroRouteOptions {
  macro: MacroService;
  /** How long answers are shared in-process (they change every few minutes at most). */
  cacheMs: number;
}

const staleNote =
  'Served from the last refresh; when the provider is down, the last good answer with stale: true; 503 upstream_unavailable before ' +
  'the first one.';

export function macroRoutes({ macro, cacheMs }: MacroRouteOptions): RouteGroup {
  const cache = new JsonTextCache(cacheMs);
  /** Serialized once per cache period for every request that shares it. */
  const send = async (res: ServerResponse, key: string, load: () => unknown): Promise<void> =>
    sendEnvelopeText(res, await cache.get(key, load));
  return defineRoutes([
    {
      method: 'get',
      path: '/api/v1/calendar',
      tag: 'macro',
      summary: 'FOMC decisions, CPI and NFP releases, options expiries and crypto milestones with exact UTC timestamps',
      description:
        'year 2023 to 2027; without it the next 90 days. Times: FOMC 14:00 and BLS 08:30 New York time converted to UTC; options ' +
        'expiries the last Friday of the month 08:00 UTC. gaps names the release series (cpi, nfp) whose published schedule ends ' +
        'inside the window.',
      style: 'envelope',
      query: calendarQuery,
      example: {
        query: { year: '2026' },
        response: {
          gen: 1767225600000,
          year: 2026,
          window: null,
          count: 1,
          events: [
            {
              ts: 1769626800000,
              iso: '2026-01-28T19:00:00.000Z',
              type: 'fomc',
              title: 'FOMC rate decision',
              desc: 'Policy statement at 14:00 New York time, press conference at 14:30.',
              impact: 3,
            },
          ],
          gaps: [],
        },
      },
      handle: ({ query, res }: { query: { year?: number }; res: ServerResponse }) =>
        send(res, `calendar:${query.year ?? 'next'}`, () => macro.calendar(query.year)),
    },
    {
      method: 'get',
      path: '/api/v1/fear-greed',
      tag: 'macro',
      summary: 'Crypto Fear and Greed index (alternative.me): value 0-100, classification, 30-day history newest first',
      description: staleNote,
      style: 'envelope',
      errors: ['upstream_unavailable'],
      example: {
        response: {
          value: 25,
          classification: 'Extreme Fear',
          ts: 1767225600000,
          history: [{ v: 25, c: 'Extreme Fear', ts: 1767225600000 }],
          updatedAt: 1767225600000,
          stale: false,
        },
      },
      handle: ({ res }: { res: ServerResponse }) => send(res, 'fear-greed', () => macro.fearGreed()),
    },
    {
      method: 'get',
      path: '/api/v1/coins',
      tag: 'macro',
      summary: 'Top 250 coins by market cap (CoinGecko): price, market cap, 1h/24h/7d change, 7-day sparkline',
      description: `cat: a CoinGecko category id (unknown: 400 unknown_category). ${staleNote}`,
      style: 'envelope',
      query: coinsQuery,
      errors: ['unknown_category', 'upstream_unavailable'],
      example: {
        response: {
          category: null,
          count: 1,
          coins: [
            {
              id: 'bitcoin',
              symbol: 'BTC',
              name: 'Bitcoin',
              image: null,
              rank: 1,
              price: 77671,
              marketCap: 1555886872303,
              volume24h: 33235034316,
              change1h: 0.58,
              change24h: -0.95,
              change7d: -4.04,
              sparkline: [81045.8, 80898.2],
            },
          ],
          updatedAt: 1767225600000,
          stale: false,
        },
      },
      handle: ({ query, res }: { query: { cat?: string }; res: ServerResponse }) =>
        send(res, `coins:${query.cat ?? ''}`, () => macro.coins(query.cat || undefined)),
    },
    {
      method: 'get',
      path: '/api/v1/global',
      tag: 'macro',
      summary: 'Total crypto market cap, 24h volume and BTC dominance (CoinGecko)',
      description: staleNote,
      style: 'envelope',
      errors: ['upstream_unavailable'],
      example: {
        response: {
          totalMarketCapUsd: 2621040321355,
          totalVolume24hUsd: 95133256404,
          btcDominance: 57.95,
          ethDominance: 9.58,
          marketCapChange24hPct: -1.61,
          activeCryptocurrencies: 17397,
          markets: 1476,
          providerUpdatedAt: 1767225500000,
          updatedAt: 1767225600000,
          stale: false,
        },
      },
      handle: ({ res }: { res: ServerResponse }) => send(res, 'global', () => macro.global()),
    },
    {
      method: 'get',
      path: '/api/v1/trending',
      tag: 'macro',
      summary: 'Coins and categories trending on CoinGecko',
      description: staleNote,
      style: 'envelope',
      errors: ['upstream_unavailable'],
      example: {
        response: {
          coins: [
            {
              id: 'bonk',
              name: 'Bonk',
              symbol: 'BONK',
              rank: 103,
              priceUsd: 0.0000059,
              change24hPct: -3.27,
              marketCapUsd: 521967819,
              thumb: null,
              score: 0,
            },
          ],
          categories: [],
          updatedAt: 1767225600000,
          stale: false,
        },
      },
      handle: ({ res }: { res: ServerResponse }) => send(res, 'trending', () => macro.trending()),
    },
    {
      method: 'get',
      path: '/api/v1/defi',
      tag: 'macro',
      summary: 'DeFi overview (DefiLlama): total TVL, top chains, biggest protocols, largest stablecoins',
      description: `Protocols exclude DefiLlama's CEX and Chain categories. ${staleNote}`,
      style: 'envelope',
      errors: ['upstream_unavailable'],
      example: {
        response: {
          totalTvl: 95000000000,
          chains: [{ name: 'Ethereum', tvl: 60000000000, sharePct: 63.16 }],
          protocols: [{ name: 'Aave', slug: 'aave', category: 'Lending', tvl: 20000000000, change1d: 0.4, change7d: -1.2, chains: 12 }],
          stablecoins: [{ name: 'Tether', symbol: 'USDT', pegType: 'peggedUSD', circulatingUsd: 150000000000, price: 1 }],
          stablecoinsTotalUsd: 250000000000,
          updatedAt: 1767225600000,
          stale: false,
        },
      },
      handle: ({ res }: { res: ServerResponse }) => send(res, 'defi', () => macro.defi()),
    },
  ]);
}
