/** REST calls per exchange: markets (instruments + 24h volume) and candle history. */
import { binanceInterval, binanceMarkets, parseBinanceKlines } from './binance-format.js';
import { bitgetGranularity, bitgetMarkets, BITGET_PRODUCT, parseBitgetCandles } from './bitget-format.js';
import { bybitInterval, bybitMarkets, parseBybitInstruments, parseBybitKlines } from './bybit-format.js';
import { getJson, withQuery, type HttpSettings } from '../../http/http-json.js';
import { okxBar, okxInstId, okxMarkets, parseOkxCandles } from './okx-format.js';
import type { Candle, Listing, Venue, VenueMarket } from '../types.js';
import { parseBinanceDepth, parseBybitDepth, type ParsedDepth } from './depth-format.js';

export interface VenueRest {
  readonly venue: Venue;
  /** Most candles one request returns. */
  readonly maxCandlesPerRequest: number;
  /** Active USDT perpetuals with their 24h quote volume. */
  fetchMarkets(signal?: AbortSignal): Promise<VenueMarket[]>;
  supportsInterval(minutes: number): boolean;
  /** Up to `limit` candles with openTime <= endMs, the newest ones, oldest first (one request). */
  fetchCandles(symbol: string, intervalMinutes: number, endMs: number, limit: number, signal?: AbortSignal): Promise<Candle[]>;
  /** The top `limit` levels of each side of a symbol's book (the venues whose depth the feed keeps; shared/market/depth-refresher.ts). */
  fetchDepth?(symbol: string, limit: number, signal?: AbortSignal): Promise<ParsedDepth>;
}

export interface VenueRestDeps {
  baseUrl: string;
  http: HttpSettings;
  now: () => number;
}

const MINUTE_MS = 60_000;
/** OKX /market/candles reaches back this many bars; older ones come from /history-candles. */
const OKX_RECENT_BARS = 1440;

function unsupported(venue: Venue, minutes: number): Error {
  return new Error(`${venue}: no ${minutes}-minute candles`);
}

/** fetchMarkets of a venue: its instrument list and its 24h tickers (same query), fetched together and joined by its format. */
function marketsFrom(
  { baseUrl, http }: VenueRestDeps,
  paths: [instruments: string, tickers: string],
  query: Record<string, string>,
  join: (instruments: unknown, tickers: unknown) => VenueMarket[],
): VenueRest['fetchMarkets'] {
  return async (signal) => {
    const [instruments, tickers] = await Promise.all(paths.map((path) => getJson(withQuery(baseUrl, path, query), http, signal)));
    return join(instruments, tickers);
  };
}

function newest(candles: Candle[], endMs: number, limit: number): Candle[] {
  return candles.filter((c) => c.openTime <= endMs).slice(-limit);
}

function binanceRest(deps: VenueRestDeps): VenueRest {
  const { baseUrl, http, now } = deps;
  return {
    venue: 'binance',
    maxCandlesPerRequest: 1500,
    fetchMarkets: marketsFrom(deps, ['/fapi/v1/exchangeInfo', '/fapi/v1/ticker/24hr'], {}, binanceMarkets),
    supportsInterval: (m) => binanceInterval(m) !== undefined,
    async fetchCandles(symbol, minutes, endMs, limit, signal) {
      const interval = binanceInterval(minutes);
      if (!interval) throw unsupported('binance', minutes);
      const body = await getJson(withQuery(baseUrl, '/fapi/v1/klines', { symbol, interval, endTime: endMs, limit }), http, signal);
      return newest(parseBinanceKlines(body, now()), endMs, limit);
    },
    async fetchDepth(symbol, limit, signal) {
      return parseBinanceDepth(await getJson(withQuery(baseUrl, '/fapi/v1/depth', { symbol, limit }), http, signal));
    },
  };
}

function bybitRest({ baseUrl, http, now }: VenueRestDeps): VenueRest {
  return {
    venue: 'bybit',
    maxCandlesPerRequest: 1000,
    async fetchMarkets(signal) {
      const symbols: Listing[] = [];
      let cursor = '';
      for (let page = 0; page < 20; page++) {
        const url = withQuery(baseUrl, '/v5/market/instruments-info', { category: 'linear', limit: 1000, cursor: cursor || undefined });
        const { symbols: found, nextCursor } = parseBybitInstruments(await getJson(url, http, signal));
        symbols.push(...found);
        if (!nextCursor || nextCursor === cursor) break;
        cursor = nextCursor;
      }
      const tickers = await getJson(withQuery(baseUrl, '/v5/market/tickers', { category: 'linear' }), http, signal);
      return bybitMarkets(symbols, tickers);
    },
    supportsInterval: (m) => bybitInterval(m) !== undefined,
    async fetchCandles(symbol, minutes, endMs, limit, signal) {
      const interval = bybitInterval(minutes);
      if (!interval) throw unsupported('bybit', minutes);
      const url = withQuery(baseUrl, '/v5/market/kline', { category: 'linear', symbol, interval, end: endMs, limit });
      return newest(parseBybitKlines(await getJson(url, http, signal), minutes, now()), endMs, limit);
    },
    async fetchDepth(symbol, limit, signal) {
      return parseBybitDepth(
        await getJson(withQuery(baseUrl, '/v5/market/orderbook', { category: 'linear', symbol, limit }), http, signal),
      );
    },
  };
}

function okxRest(deps: VenueRestDeps): VenueRest {
  const { baseUrl, http, now } = deps;
  return {
    venue: 'okx',
    maxCandlesPerRequest: 100,
    fetchMarkets: marketsFrom(deps, ['/api/v5/public/instruments', '/api/v5/market/tickers'], { instType: 'SWAP' }, okxMarkets),
    supportsInterval: (m) => okxBar(m) !== undefined,
    async fetchCandles(symbol, minutes, endMs, limit, signal) {
      const bar = okxBar(minutes);
      if (!bar) throw unsupported('okx', minutes);
      const recent = endMs >= now() - (OKX_RECENT_BARS - limit) * minutes * MINUTE_MS;
      const path = recent ? '/api/v5/market/candles' : '/api/v5/market/history-candles';
      // `after` asks for bars older than the given time (exclusive)
      const url = withQuery(baseUrl, path, { instId: okxInstId(symbol), bar, after: endMs + 1, limit: Math.min(limit, 100) });
      return newest(parseOkxCandles(await getJson(url, http, signal)), endMs, limit);
    },
  };
}

function bitgetRest(deps: VenueRestDeps): VenueRest {
  const { baseUrl, http, now } = deps;
  return {
    venue: 'bitget',
    maxCandlesPerRequest: 1000,
    fetchMarkets: marketsFrom(
      deps,
      ['/api/v2/mix/market/contracts', '/api/v2/mix/market/tickers'],
      { productType: BITGET_PRODUCT },
      bitgetMarkets,
    ),
    supportsInterval: (m) => bitgetGranularity(m) !== undefined,
    async fetchCandles(symbol, minutes, endMs, limit, signal) {
      const granularity = bitgetGranularity(minutes);
      if (!granularity) throw unsupported('bitget', minutes);
      const url = withQuery(baseUrl, '/api/v2/mix/market/candles', {
        symbol,
        productType: BITGET_PRODUCT,
        granularity,
        endTime: endMs,
        limit,
      });
      return newest(parseBitgetCandles(await getJson(url, http, signal), minutes, now()), endMs, limit);
    },
  };
}

const FACTORIES: Record<Venue, (deps: VenueRestDeps) => VenueRest> = {
  binance: binanceRest,
  bybit: bybitRest,
  okx: okxRest,
  bitget: bitgetRest,
};

export function createVenueRest(venue: Venue, deps: VenueRestDeps): VenueRest {
  return FACTORIES[venue](deps);
}
