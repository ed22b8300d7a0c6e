/** Binance USDⓈ-M market data (no key), from the same market services as the native routes. */
import type { Clock } from '../../shared/core/clock.js';
import { isAppError } from '../../shared/core/errors.js';
import type { DerivativesServices } from '../../shared/derivatives/derivatives-services.js';
import {
  bookTicker,
  exchangeInfoSymbol,
  fundingRateRow,
  KLINE_INTERVALS,
  klineRow,
  nextEightHour,
  premiumIndex,
  ticker24hr,
  tickerPrice,
  type TickerInput,
} from '../../shared/binance/market-shapes.js';
import type { DepthStore } from '../../shared/market/depth-store.js';
import type { MarketService } from '../../shared/market/market-service.js';
import type { FundingStore } from '../../shared/paper/funding/funding-store.js';
import { validateInput } from '../routing/validate.js';
import type { BinanceRoute, PublicCall } from './binance-route.js';
import { depthQuery, fundingRateQuery, klinesQuery, optionalSymbolQuery } from './schemas.js';

export interface MarketRouteDeps {
  clock: Clock;
  market: MarketService;
  derivatives: DerivativesServices;
  funding: FundingStore;
  depth: DepthStore;
}

const MINUTE_MS = 60_000;
/** How far back fundingRate looks without a startTime: Binance answers the newest records. */
const FUNDING_LOOKBACK_MS = 30 * 86_400_000;

/** The tickers of one symbol (an object) or of every symbol with a price (an array), as Binance answers both. */
async function tickers(market: MarketService, symbol: string | undefined): Promise<TickerInput[]> {
  const universe = await market.symbols();
  const volumeOf = new Map(universe.map((entry) => [entry.symbol, entry.quoteVolume24h]));
  const quotes = symbol === undefined ? await market.quotes(universe.map((entry) => entry.symbol)) : [await market.quote(symbol)];
  return quotes.map((q) => ({
    symbol: q.pair,
    price: q.price,
    changePct24h: q.changePct24h,
    quoteVolume24h: volumeOf.get(q.pair) ?? 0,
    ts: q.ts,
  }));
}

function oneOrAll(symbol: string | undefined, shape: (t: TickerInput) => unknown) {
  return (list: TickerInput[]): unknown => (symbol === undefined ? list.map(shape) : shape(list[0]));
}

export function marketRoutes({ clock, market, derivatives, funding, depth }: MarketRouteDeps): BinanceRoute[] {
  const publicGet = (path: string, handle: (call: PublicCall) => unknown): BinanceRoute => ({ method: 'get', path, signed: false, handle });
  return [
    publicGet('/v1/ping', () => ({})),
    publicGet('/v1/time', () => ({ serverTime: clock.now() })),
    publicGet('/v1/exchangeInfo', async () => {
      const universe = await market.symbols();
      const priced = new Map((await market.quotes(universe.map((entry) => entry.symbol))).map((q) => [q.pair, q.price]));
      const symbols = universe.flatMap((entry) => {
        const price = priced.get(entry.symbol);
        return price === undefined
          ? []
          : [exchangeInfoSymbol({ symbol: entry.symbol, assetClass: entry.assetClass, price, closed: entry.closed })];
      });
      return {
        timezone: 'UTC',
        serverTime: clock.now(),
        futuresType: 'U_MARGINED',
        rateLimits: [],
        exchangeFilters: [],
        assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '0' }],
        symbols,
      };
    }),
    ...['/v1/ticker/price', '/v2/ticker/price'].map((path) =>
      publicGet(path, async ({ params }) => {
        const { symbol } = validateInput<{ symbol?: string }>(optionalSymbolQuery, params);
        return oneOrAll(symbol, tickerPrice)(await tickers(market, symbol));
      }),
    ),
    publicGet('/v1/ticker/24hr', async ({ params }) => {
      const { symbol } = validateInput<{ symbol?: string }>(optionalSymbolQuery, params);
      return oneOrAll(symbol, ticker24hr)(await tickers(market, symbol));
    }),
    publicGet('/v1/ticker/bookTicker', async ({ params }) => {
      const { symbol } = validateInput<{ symbol?: string }>(optionalSymbolQuery, params);
      const list = await tickers(market, symbol);
      const books = await Promise.all(list.map((t) => depth.get(t.symbol)));
      const shaped = list.map((t, i) => {
        const book = books[i];
        const best = book && book.bids[0] && book.asks[0] ? { bid: book.bids[0], ask: book.asks[0] } : undefined;
        return bookTicker(t.symbol, t.price, t.ts, best);
      });
      return symbol === undefined ? shaped : shaped[0];
    }),
    publicGet('/v1/klines', async ({ params }) => {
      const q = validateInput<{ symbol: string; interval: string; startTime?: number; endTime?: number; limit: number }>(
        klinesQuery,
        params,
      );
      const minutes = KLINE_INTERVALS[q.interval];
      // Binance pages forward from startTime; the store pages backward from an end: the window's last open time
      const endMs = q.endTime ?? (q.startTime === undefined ? undefined : q.startTime + (q.limit - 1) * minutes * MINUTE_MS);
      const candles = await market.candles({
        symbol: q.symbol,
        intervalMinutes: minutes,
        limit: q.limit,
        ...(endMs === undefined ? {} : { endMs }),
      });
      return candles.filter((c) => q.startTime === undefined || c.openTime >= q.startTime).map((c) => klineRow(c, minutes));
    }),
    publicGet('/v1/premiumIndex', async ({ params }) => {
      const { symbol } = validateInput<{ symbol?: string }>(optionalSymbolQuery, params);
      const list = await tickers(market, symbol);
      // the exchanges' current rates when the derivatives job has collected them; else the last settled one
      const snapshot = await derivatives.derivatives.funding().catch((error: unknown) => {
        if (isAppError(error) && error.code === 'upstream_unavailable') return null;
        throw error;
      });
      const rows = new Map((snapshot?.pairs ?? []).map((row) => [row.pair, row]));
      const now = clock.now();
      const shaped = await Promise.all(
        list.map(async (t) => {
          const row = rows.get(t.symbol);
          const settled = row ? [] : await funding.between(t.symbol, now - FUNDING_LOOKBACK_MS, now);
          const rate = row?.rate ?? settled.at(-1)?.rate ?? 0;
          return premiumIndex({ symbol: t.symbol, mark: t.price, rate, nextFundingTime: row?.nextFundingTime ?? nextEightHour(now), now });
        }),
      );
      return symbol === undefined ? shaped : shaped[0];
    }),
    publicGet('/v1/fundingRate', async ({ params }) => {
      const q = validateInput<{ symbol?: string; startTime?: number; endTime?: number; limit: number }>(fundingRateQuery, params);
      if (q.symbol === undefined) return [];
      const pair = await market.resolveSymbol(q.symbol);
      const to = q.endTime ?? clock.now();
      const records = await funding.between(pair, (q.startTime ?? to - FUNDING_LOOKBACK_MS) - 1, to);
      const page = q.startTime === undefined ? records.slice(-q.limit) : records.slice(0, q.limit);
      return page.map((r) => fundingRateRow(pair, r.time, r.rate, r.mark));
    }),
    publicGet('/v1/depth', async ({ params }) => {
      const q = validateInput<{ symbol: string; limit: number }>(depthQuery, params);
      const quote = await market.quote(q.symbol);
      const book = await depth.get(quote.pair);
      // the order book we hold (a venue's snapshot) or, without one, the synthetic best bid and ask at the price
      const best = bookTicker(quote.pair, quote.price, quote.ts) as { bidPrice: string; askPrice: string };
      const side = (levels: [number, number][] | undefined, synthetic: string): string[][] =>
        levels && levels.length > 0 ? levels.slice(0, q.limit).map(([p, s]) => [String(p), String(s)]) : [[synthetic, '0']];
      return {
        lastUpdateId: book?.ts ?? quote.ts,
        E: clock.now(),
        T: book?.ts ?? quote.ts,
        bids: side(book?.bids, best.bidPrice),
        asks: side(book?.asks, best.askPrice),
      };
    }),
  ];
}
