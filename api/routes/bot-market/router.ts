import type { Clock } from '../../../shared/core/clock.js';
import type { MarketService } from '../../../shared/market/market-service.js';
import { marketClosedError } from '../../../shared/market/quote-freshness.js';
import { klinesHandler } from '../market/candle-view.js';
import type { CachedQuotes } from '../market/cached-quotes.js';
import { botRoute, type KeylessBotRoute } from '../../routing/bot-route.js';
import { defineRoutes, type RouteDefinition, type RouteGroup } from '../../routing/route-catalog.js';
import { BOT_INTERVALS, botKlinesQuery, HISTORY_ERRORS, priceQuery, SYMBOL_ERRORS, timeQuery } from '../market/schemas.js';

export interface BotMarketRouteOptions {
  market: MarketService;
  clock: Clock;
  quotes: CachedQuotes;
}

/** The keyless market routes of the bot API, in v1 (bare) and v2 (envelope). */
export function botMarketRoutes({ market, clock, quotes }: BotMarketRouteOptions): RouteGroup {
  const marketRoute = (path: string, route: Omit<KeylessBotRoute, 'method' | 'tag'>): RouteDefinition[] =>
    botRoute(path, { method: 'get', tag: 'bot market', ...route });
  return defineRoutes([
    ...marketRoute('/price', {
      summary: 'Live price of one symbol (no key needed)',
      query: priceQuery,
      errors: [...SYMBOL_ERRORS, 'market_closed'],
      example: {
        query: { symbol: 'BTC' },
        response: { symbol: 'BTCUSDT', price: 65012.5, change_24h_pct: 1.42, stale: false, ts: 1767225600000 },
      },
      handle: async ({ query }: { query: { symbol: string } }) => {
        const quote = await quotes.get(query.symbol);
        // as the original: a TradFi market that is closed answers 409 market_closed, its last price in the body
        if (quote.closure) throw marketClosedError(quote.base, quote.closure, { price: quote.price, ts: quote.ts });
        return {
          symbol: quote.pair,
          price: quote.price,
          change_24h_pct: quote.changePct24h,
          stale: quote.stale,
          ...(quote.ageMs !== undefined ? { age_ms: quote.ageMs } : {}),
          ts: quote.ts,
        };
      },
    }),
    ...marketRoute('/klines', {
      summary: 'Candles, newest last, time in seconds; end (unix ms) pages backwards; up to 1000 per call',
      query: botKlinesQuery,
      errors: HISTORY_ERRORS,
      example: {
        query: { symbol: 'BTC', interval: '1', limit: '1' },
        response: [{ time: 1767225600, open: 65000, high: 65050, low: 64980, close: 65012.5, volume: 12.5 }],
      },
      handle: klinesHandler(market, BOT_INTERVALS),
    }),
    ...marketRoute('/time', {
      summary: 'Server time; drift_ms = server minus client when client_ts is sent',
      query: timeQuery,
      example: {
        query: { client_ts: '1767225599750' },
        response: {
          server_time_ms: 1767225600000,
          server_time_iso: '2026-01-01T00:00:00.000Z',
          client_time_ms: 1767225599750,
          drift_ms: 250,
        },
      },
      handle: ({ query }: { query: { client_ts?: number } }) => {
        const now = clock.now();
        const base = { server_time_ms: now, server_time_iso: new Date(now).toISOString() };
        return query.client_ts === undefined ? base : { ...base, client_time_ms: query.client_ts, drift_ms: now - query.client_ts };
      },
    }),
  ]);
}
