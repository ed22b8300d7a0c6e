import { MAJOR_PAIRS } from '../../../shared/market/majors.js';
import type { MarketService, QuoteWithClosure } from '../../../shared/market/market-service.js';
import { klinesHandler } from './candle-view.js';
import type { CachedQuotes } from './cached-quotes.js';
import { JsonTextCache, sendEnvelopeText } from '../../routing/json-text.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { HISTORY_ERRORS, PUBLIC_INTERVALS, priceQuery, publicKlinesQuery, SYMBOL_ERRORS } from './schemas.js';

export interface MarketRouteOptions {
  market: MarketService;
  /** How long hot answers are shared in-process. */
  /** Shared with the bot price route. */
  quotes: CachedQuotes;
  /** How long the majors answer is shared in-process. */
  cacheMs: number;
}

function priceView(quote: QuoteWithClosure): Record<string, unknown> {
  return {
    symbol: quote.base,
    pair: quote.pair,
    price: quote.price,
    changePct24h: quote.changePct24h,
    // the original's name for it (its bot price route's), beside ours
    change_24h_pct: quote.changePct24h,
    venues: quote.venues,
    stale: quote.stale,
    ...(quote.ageMs !== undefined ? { ageMs: quote.ageMs } : {}),
    market_closed: quote.closure !== null,
    ts: quote.ts,
  };
}

export function marketRoutes({ market, quotes, cacheMs }: MarketRouteOptions): RouteGroup {
  // the same eight answers for every caller: serialized once per cache period
  const majorsCache = new JsonTextCache(cacheMs);
  return defineRoutes([
    {
      method: 'get',
      path: '/api/v1/price',
      tag: 'market',
      summary: 'Live price of one coin: the median of the exchanges with a fresh price',
      description:
        'When no exchange has a fresh price, the last known one is served with stale: true and ageMs; 503 upstream_unavailable when ' +
        'there is none. market_closed: a TradFi market closed now (its exchange says so, or its price stood still past ' +
        'TRADFI_FROZEN_MS): the price is its last, and the bot API refuses opens on it.',
      style: 'envelope',
      query: priceQuery,
      errors: SYMBOL_ERRORS,
      example: {
        query: { symbol: 'BTC' },
        response: {
          symbol: 'BTC',
          pair: 'BTCUSDT',
          price: 65012.5,
          changePct24h: 1.42,
          change_24h_pct: 1.42,
          venues: 4,
          stale: false,
          market_closed: false,
          ts: 1767225600000,
        },
      },
      handle: async ({ query }: { query: { symbol: string } }) => priceView(await quotes.get(query.symbol)),
    },
    {
      method: 'get',
      path: '/api/v1/prices',
      tag: 'market',
      summary: 'Snapshot of BTC, ETH, SOL, BNB, XRP, DOGE, ADA, AVAX',
      style: 'envelope',
      example: {
        response: { pairs: [{ symbol: 'BTCUSDT', price: '65012.5', changePct: '1.42', stale: false }], ts: 1767225600000 },
      },
      handle: async ({ res }) => {
        const text = await majorsCache.get('majors', async () => {
          const quotes = await market.quotes(MAJOR_PAIRS);
          return {
            pairs: quotes.map((q) => ({
              symbol: q.pair,
              price: String(q.price),
              changePct: q.changePct24h === null ? null : q.changePct24h.toFixed(2),
              stale: q.stale,
            })),
            ts: Math.max(0, ...quotes.map((q) => q.ts)),
          };
        });
        sendEnvelopeText(res, text);
      },
    },
    {
      method: 'get',
      path: '/api/v1/klines',
      tag: 'market',
      summary: 'OHLC candles, oldest first; time in seconds. Defaults: interval 60, limit 200 (max 1000)',
      style: 'envelope',
      query: publicKlinesQuery,
      errors: HISTORY_ERRORS,
      example: {
        query: { symbol: 'BTC', interval: '60', limit: '2' },
        response: [
          { time: 1767222000, open: 64900, high: 65100, low: 64850, close: 65000, volume: 1520.4 },
          { time: 1767225600, open: 65000, high: 65050, low: 64980, close: 65012.5, volume: 210.7 },
        ],
      },
      handle: klinesHandler(market, PUBLIC_INTERVALS),
    },
    {
      method: 'get',
      path: '/api/v1/symbols',
      tag: 'market',
      summary: 'About 500 liquid USDT perpetuals, largest 24h quote volume (summed across exchanges) first',
      style: 'envelope',
      example: {
        response: {
          ts: 1767225600000,
          count: 2,
          symbols: ['BTCUSDT', 'ETHUSDT'],
          volumes: [{ symbol: 'BTCUSDT', quoteVolume24h: 1.5e10 }],
        },
      },
      handle: async () => {
        const entries = await market.symbols();
        return {
          ts: Date.now(),
          count: entries.length,
          symbols: entries.map((e) => e.symbol),
          volumes: entries,
        };
      },
    },
  ]);
}
