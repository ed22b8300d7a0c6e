/**
 * Binance USDⓈ-M's trading statistics at `/futures/data` (no key), from the derivatives jobs' data: open interest (the
 * per-minute history, 25 hours of it) and the global long/short account ratio (Binance's own, the latest 5-minute
 * point). Top traders' ratios and taker buy/sell volumes are not collected here: refused by name, never made up.
 */
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import { accountRatioRow, DATA_PERIODS, oiAtBoundaries, openInterestRow, pageOf } from '../../shared/binance/data-shapes.js';
import type { DerivativesServices } from '../../shared/derivatives/derivatives-services.js';
import { OI_HISTORY_MS, type DerivativesStore } from '../../shared/derivatives/derivatives-store.js';
import type { MarketService } from '../../shared/market/market-service.js';
import { validateInput } from '../routing/validate.js';
import type { BinanceRoute, PublicCall } from './binance-route.js';
import { dataQuery } from './schemas.js';

/** Where Binance serves the statistics (ccxt: `urls.api.fapiData`). */
export const BINANCE_DATA_PREFIX = '/futures/data';

export interface DataRouteDeps {
  clock: Clock;
  market: MarketService;
  derivatives: DerivativesServices;
  store: DerivativesStore;
}

interface DataQuery {
  symbol: string;
  period: string;
  limit: number;
  startTime?: number;
  endTime?: number;
}

/** The statistics Perpdesk does not collect, and what to use instead. */
const NOT_COLLECTED: Readonly<Record<string, string>> = {
  '/topLongShortAccountRatio': "top traders' account ratios are not collected here; globalLongShortAccountRatio is",
  '/topLongShortPositionRatio': "top traders' position ratios are not collected here; globalLongShortAccountRatio is",
  '/takerlongshortRatio': 'taker buy and sell volumes are not collected here (the candles keep total volume only)',
};

export function dataRoutes({ clock, market, derivatives, store }: DataRouteDeps): BinanceRoute[] {
  const publicGet = (path: string, handle: (call: PublicCall) => unknown): BinanceRoute => ({ method: 'get', path, signed: false, handle });
  return [
    publicGet('/openInterestHist', async ({ params }) => {
      const q = validateInput<DataQuery>(dataQuery, params);
      const quote = await market.quote(q.symbol);
      const now = clock.now();
      const samples = await store.openInterestHistory(quote.pair, now - OI_HISTORY_MS);
      // the quantity at the price now: the history keeps the USD value the exchanges reported, not the price then
      return pageOf(oiAtBoundaries(samples, DATA_PERIODS[q.period], now), q).map((p) => openInterestRow(quote.pair, p, quote.price));
    }),
    publicGet('/globalLongShortAccountRatio', async ({ params }) => {
      const q = validateInput<DataQuery>(dataQuery, params);
      const pair = await market.resolveSymbol(q.symbol);
      const row = (await derivatives.derivatives.longShort()).pairs.find((p) => p.pair === pair);
      const view = row?.exchanges.binance;
      return view ? pageOf([{ ...accountRatioRow(pair, view) }], q) : [];
    }),
    ...Object.entries(NOT_COLLECTED).map(([path, why]) =>
      publicGet(path, ({ params }) => {
        validateInput<DataQuery>(dataQuery, params);
        throw new AppError('statistic_unavailable', `${path.slice(1)} is not available: ${why}.`);
      }),
    ),
  ];
}
