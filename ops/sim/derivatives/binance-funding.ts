/**
 * Binance USDⓈ-M funding metadata and history: GET /fapi/v1/fundingInfo (the pairs whose schedule is
 * not the default 8 h, with fundingIntervalHours) and GET /fapi/v1/fundingRate (settled funding: symbol,
 * fundingRate, fundingTime, markPrice; test/fixtures/binance-usdm/funding-rate.json). Every funding time
 * of a symbol's schedule up to now has settled at the quote's rate, at the mark of that minute.
 */
import { fixed } from '../format.js';
import { HOUR } from '../market-model.js';
import type { RestReply, RestRequest, VenueDeps } from '../sim-types.js';
import type { SymbolSpec } from '../symbols.js';
import { clampLimit } from '../venues/common.js';
import { intParam } from '../ws-hub.js';

/** Without startTime the venue answers the newest rows; this is how far back the sim looks for them. */
const DEFAULT_LOOKBACK_MS = 24 * HOUR;

export function binanceFundingRest(req: RestRequest, deps: VenueDeps): RestReply | undefined {
  if (req.method !== 'GET') return undefined;
  if (req.path === '/fapi/v1/fundingInfo') {
    const body = deps.model.symbols
      .filter((spec) => spec.fundingIntervalHours !== 8)
      .map((spec) => ({
        symbol: spec.symbol,
        adjustedFundingRateCap: '0.02000000',
        adjustedFundingRateFloor: '-0.02000000',
        fundingIntervalHours: spec.fundingIntervalHours,
        disclaimer: false,
      }));
    return { status: 200, body };
  }
  if (req.path !== '/fapi/v1/fundingRate') return undefined;
  const symbol = req.query.get('symbol');
  const specs = symbol ? deps.model.symbols.filter((s) => s.symbol === symbol) : deps.model.symbols;
  if (specs.length === 0) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
  const now = deps.now();
  const end = Math.min(now, intParam(req.query, 'endTime') ?? now);
  const start = intParam(req.query, 'startTime') ?? end - DEFAULT_LOOKBACK_MS;
  const limit = clampLimit(intParam(req.query, 'limit'), 100, 1000);
  const rows = specs.flatMap((spec) => settledTimes(spec, start, end).map((t) => ({ spec, t })));
  rows.sort((a, b) => a.t - b.t || a.spec.index - b.spec.index);
  // oldest first from startTime, as the venue pages
  const body = rows.slice(0, limit).map(({ spec, t }) => ({
    symbol: spec.symbol,
    fundingRate: fixed(deps.model.quote(spec.symbol, 'binance').fundingRate, 8),
    fundingTime: t,
    markPrice: fixed(deps.model.markAt(spec.symbol, 'binance', t), 8),
  }));
  return { status: 200, body };
}

/** The symbol's funding times in [start, end]. */
function settledTimes(spec: SymbolSpec, start: number, end: number): number[] {
  const interval = spec.fundingIntervalHours * HOUR;
  const out: number[] = [];
  for (let t = Math.ceil(start / interval) * interval; t <= end; t += interval) out.push(t);
  return out;
}
