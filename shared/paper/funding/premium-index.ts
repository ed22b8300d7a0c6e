/** Binance USDⓈ-M GET /fapi/v1/premiumIndex (fixtures/binance-usdm/premium-index.json): funding rate and mark per perpetual. Pure. */
import { canonicalSymbol } from '../../market/canonical-symbol.js';
import { isRecord, toNumber } from '../../market/parse-utils.js';

export interface PremiumIndexRow {
  symbol: string;
  /** lastFundingRate, a fraction (0.0001 = 0.01% per 8 h). */
  rate: number;
  mark: number;
}

/** Perpetual rows only: dated contracts (nextFundingTime 0, names with _) and malformed rows are skipped. */
export function parsePremiumIndex(body: unknown): PremiumIndexRow[] {
  const rows = Array.isArray(body) ? body : isRecord(body) ? [body] : [];
  const out: PremiumIndexRow[] = [];
  for (const row of rows) {
    if (!isRecord(row) || typeof row.symbol !== 'string' || row.symbol.includes('_') || row.nextFundingTime === 0) continue;
    const symbol = canonicalSymbol(row.symbol);
    const rate = toNumber(row.lastFundingRate);
    const mark = toNumber(row.markPrice);
    if (!symbol || symbol !== row.symbol || rate === undefined || mark === undefined || mark <= 0) continue;
    out.push({ symbol, rate, mark });
  }
  return out;
}
