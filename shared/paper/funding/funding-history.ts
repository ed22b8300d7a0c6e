/**
 * Binance USDⓈ-M GET /fapi/v1/fundingRate (test/fixtures/binance-usdm/funding-rate.json): the funding
 * that settled, one row per symbol and funding time, each at the symbol's own schedule (8 h, 4 h, 1 h).
 * Unlike premiumIndex's lastFundingRate (the estimate for the period running now), these are the rates
 * positions paid. Pure.
 */
import { canonicalSymbol } from '../../market/canonical-symbol.js';
import { isRecord, toNumber } from '../../market/parse-utils.js';

export interface SettledFunding {
  symbol: string;
  /** The funding time, ms. */
  time: number;
  /** fundingRate, a fraction (0.0001 = 0.01% per period). */
  rate: number;
  /** markPrice at the funding time. */
  mark: number;
}

/** Rows of USDT perpetuals with a rate, a time and a mark; a row without a mark (older rows send "") is skipped. */
export function parseFundingHistory(body: unknown): SettledFunding[] {
  if (!Array.isArray(body)) return [];
  const out: SettledFunding[] = [];
  for (const row of body) {
    if (!isRecord(row) || typeof row.symbol !== 'string') continue;
    const symbol = canonicalSymbol(row.symbol);
    const rate = toNumber(row.fundingRate);
    const time = toNumber(row.fundingTime);
    const mark = toNumber(row.markPrice);
    if (!symbol || symbol !== row.symbol || rate === undefined || !time || mark === undefined || mark <= 0) continue;
    out.push({ symbol, time, rate, mark });
  }
  return out;
}
