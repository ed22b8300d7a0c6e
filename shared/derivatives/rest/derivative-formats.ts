/**
 * Pure readers of the exchanges' REST answers used by the funding, open-interest and long/short jobs:
 * Binance premiumIndex / openInterest / globalLongShortAccountRatio, Bybit tickers / account-ratio,
 * OKX funding-rate / open-interest. Funding rates are per funding interval; positive = longs pay shorts.
 */
import { canonicalSymbol } from '../../market/canonical-symbol.js';
import { isRecord, toNumber, toStr } from '../../market/parse-utils.js';
import { bySymbol } from '../../market/venues/venue-rows.js';

export interface FundingQuote {
  rate: number;
  /** Next funding time, ms. */
  nextFundingTime: number | null;
  /** Hours between fundings, when the exchange says. */
  intervalHours?: number;
}

export interface VenueFundingAndOi {
  funding: Map<string, FundingQuote>;
  /** Open interest in USD, when the same answer carries it (Bybit tickers). */
  oiUsd: Map<string, number>;
  /** Mark price (Binance premiumIndex), to value open interest given in coin. */
  mark: Map<string, number>;
}

export interface AccountRatio {
  /** Share of accounts net long, 0..1. */
  long: number;
  short: number;
  ts: number;
}

/** USDT perpetuals only: BTCUSDT, not BTCUSDT_250328, BTCUSDC or BTCPERP. */
function usdtPerp(name: string | undefined): string | undefined {
  if (!name || !/^[A-Z0-9]+USDT$/.test(name)) return undefined;
  return canonicalSymbol(name) ?? undefined;
}

/** GET /fapi/v1/premiumIndex (all symbols). Dated contracts (nextFundingTime 0) are left out. */
export function parseBinancePremiumIndex(body: unknown): VenueFundingAndOi {
  const out: VenueFundingAndOi = { funding: new Map(), oiUsd: new Map(), mark: new Map() };
  if (!Array.isArray(body)) return out;
  for (const row of body) {
    if (!isRecord(row)) continue;
    const symbol = usdtPerp(toStr(row.symbol));
    const rate = toNumber(row.lastFundingRate);
    const next = toNumber(row.nextFundingTime);
    const mark = toNumber(row.markPrice);
    if (!symbol || rate === undefined || !next) continue;
    out.funding.set(symbol, { rate, nextFundingTime: next });
    if (mark !== undefined && mark > 0) out.mark.set(symbol, mark);
  }
  return out;
}

/** Binance's schedule for a pair its fundingInfo does not list. */
export const BINANCE_DEFAULT_FUNDING_HOURS = 8;

/** GET /fapi/v1/fundingInfo: hours between fundings for the pairs whose schedule was adjusted (the rest run 8 h). */
export function parseBinanceFundingInfo(body: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (!Array.isArray(body)) return out;
  for (const row of body) {
    if (!isRecord(row)) continue;
    const symbol = usdtPerp(toStr(row.symbol));
    const hours = toNumber(row.fundingIntervalHours);
    if (symbol && hours !== undefined && hours > 0) out.set(symbol, hours);
  }
  return out;
}

/** Binance's funding quotes with each pair's interval: its fundingInfo hours, else the default 8. */
export function withBinanceIntervals(
  funding: Map<string, FundingQuote>,
  hours: Map<string, number> | undefined,
): Map<string, FundingQuote> {
  if (!hours) return funding;
  return new Map(
    [...funding].map(([symbol, quote]) => [symbol, { ...quote, intervalHours: hours.get(symbol) ?? BINANCE_DEFAULT_FUNDING_HOURS }]),
  );
}

/** GET /fapi/v1/openInterest?symbol=: open interest in coin. */
export function parseBinanceOpenInterest(body: unknown): number | undefined {
  return isRecord(body) ? toNumber(body.openInterest) : undefined;
}

/** GET /futures/data/globalLongShortAccountRatio: the newest row (timestamps may be strings or numbers). */
export function parseBinanceAccountRatio(body: unknown): AccountRatio | undefined {
  return Array.isArray(body) ? newestRatio(body, 'longAccount', 'shortAccount') : undefined;
}

/** The newest of some account-ratio rows, the long and short shares read from the named fields. */
function newestRatio(rows: readonly unknown[], longField: string, shortField: string): AccountRatio | undefined {
  let best: AccountRatio | undefined;
  for (const row of rows) {
    if (!isRecord(row)) continue;
    const long = toNumber(row[longField]);
    const short = toNumber(row[shortField]);
    const ts = toNumber(row.timestamp);
    if (long === undefined || short === undefined || ts === undefined) continue;
    if (!best || ts > best.ts) best = { long, short, ts };
  }
  return best;
}

function bybitList(body: unknown): unknown[] {
  if (!isRecord(body) || body.retCode !== 0 || !isRecord(body.result) || !Array.isArray(body.result.list)) return [];
  return body.result.list;
}

/** GET /v5/market/tickers?category=linear: funding, next funding time and open interest value (USD) per symbol. */
export function parseBybitTickers(body: unknown): VenueFundingAndOi {
  const out: VenueFundingAndOi = { funding: new Map(), oiUsd: new Map(), mark: new Map() };
  for (const row of bybitList(body)) {
    if (!isRecord(row)) continue;
    const symbol = usdtPerp(toStr(row.symbol));
    if (!symbol) continue;
    const rate = toNumber(row.fundingRate);
    const next = toNumber(row.nextFundingTime);
    const hours = toNumber(row.fundingIntervalHour);
    if (rate !== undefined && next) out.funding.set(symbol, { rate, nextFundingTime: next, ...(hours ? { intervalHours: hours } : {}) });
    const oi = toNumber(row.openInterestValue);
    if (oi !== undefined && oi > 0) out.oiUsd.set(symbol, oi);
    const mark = toNumber(row.markPrice);
    if (mark !== undefined && mark > 0) out.mark.set(symbol, mark);
  }
  return out;
}

/** GET /v5/market/account-ratio: the newest row (buyRatio = share of accounts long). */
export function parseBybitAccountRatio(body: unknown): AccountRatio | undefined {
  return newestRatio(bybitList(body), 'buyRatio', 'sellRatio');
}

function okxData(body: unknown): unknown[] {
  return isRecord(body) && body.code === '0' && Array.isArray(body.data) ? body.data : [];
}

const okxUsdtSwap = (instId: string | undefined): string | undefined => {
  const m = instId ? /^([A-Z0-9]+)-USDT-SWAP$/.exec(instId) : null;
  return m ? (canonicalSymbol(`${m[1]}USDT`) ?? undefined) : undefined;
};

/** GET /api/v5/public/funding-rate?instId=ANY (or one instId). `fundingTime` is the next settlement. */
export function parseOkxFundingRates(body: unknown): Map<string, FundingQuote> {
  return bySymbol(okxData(body), (row) => {
    const rate = toNumber(row.fundingRate);
    const next = toNumber(row.fundingTime);
    const after = toNumber(row.nextFundingTime);
    if (rate === undefined || !next) return [undefined, undefined];
    const hours = after && after > next ? Math.round((after - next) / 3_600_000) : undefined;
    return [okxUsdtSwap(toStr(row.instId)), { rate, nextFundingTime: next, ...(hours ? { intervalHours: hours } : {}) }];
  });
}

/** GET /api/v5/public/open-interest?instType=SWAP: oiUsd per USDT swap. */
export function parseOkxOpenInterest(body: unknown): Map<string, number> {
  return bySymbol(okxData(body), (row) => {
    const usd = toNumber(row.oiUsd);
    return [okxUsdtSwap(toStr(row.instId)), usd !== undefined && usd > 0 ? usd : undefined];
  });
}
