/**
 * Brazilian provider bodies: AwesomeAPI USD-BRL, the central bank's PTAX (Olinda OData), Mercado
 * Bitcoin v4 tickers and Foxbit v3 24h tickers. Numbers arrive as strings except PTAX. Pure.
 */
import { isRecord, toNumber, toStr } from '../../market/parse-utils.js';
import { ProviderFormatError } from '../../http/provider-http.js';

export interface UsdBrlRate {
  /** Mid of bid and ask (AwesomeAPI) or of compra and venda (PTAX). */
  rate: number;
  source: 'awesomeapi' | 'bcb-ptax';
  /** Time of the quote, ms. */
  ts: number | null;
}

export interface BookTop {
  ask: number;
  bid: number;
}

export function parseAwesomeUsdBrl(body: unknown): UsdBrlRate {
  const q = isRecord(body) && isRecord(body.USDBRL) ? body.USDBRL : undefined;
  const bid = q ? toNumber(q.bid) : undefined;
  const ask = q ? toNumber(q.ask) : undefined;
  if (!q || bid === undefined || ask === undefined || bid <= 0 || ask <= 0)
    throw new ProviderFormatError('awesomeapi: USDBRL.bid/ask missing');
  const seconds = toNumber(q.timestamp);
  return { rate: (bid + ask) / 2, source: 'awesomeapi', ts: seconds === undefined ? null : seconds * 1000 };
}

/** "2021-08-23 13:10:34.583", Brasília time (UTC-3, no daylight time since 2019) -> ms. */
export function brasiliaToUtc(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?$/.exec(text.trim());
  if (!m) return null;
  const ms = m[7] ? Math.round(Number(m[7]) * 1000) : 0;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]) + 3, Number(m[5]), Number(m[6]), ms);
}

/** The newest PTAX bulletin of the period. */
export function parsePtax(body: unknown): UsdBrlRate {
  const rows = isRecord(body) && Array.isArray(body.value) ? body.value : [];
  let best: { rate: number; ts: number } | undefined;
  for (const row of rows) {
    if (!isRecord(row)) continue;
    const buy = toNumber(row.cotacaoCompra);
    const sell = toNumber(row.cotacaoVenda);
    const ts = brasiliaToUtc(toStr(row.dataHoraCotacao) ?? '');
    if (buy === undefined || sell === undefined || buy <= 0 || sell <= 0 || ts === null) continue;
    if (!best || ts > best.ts) best = { rate: (buy + sell) / 2, ts };
  }
  if (!best) throw new ProviderFormatError('bcb-ptax: no bulletin in the period');
  return { rate: best.rate, source: 'bcb-ptax', ts: best.ts };
}

/** Mercado Bitcoin v4 /tickers: `buy` is the best bid, `sell` the best ask. Keyed by pair (BTC-BRL). */
export function parseMercadoBitcoinTickers(body: unknown): Record<string, BookTop> {
  if (!Array.isArray(body)) throw new ProviderFormatError('mercado-bitcoin /tickers: the answer is not a list');
  const out: Record<string, BookTop> = {};
  for (const t of body) {
    if (!isRecord(t)) continue;
    const pair = toStr(t.pair);
    const bid = toNumber(t.buy);
    const ask = toNumber(t.sell);
    if (pair && bid !== undefined && ask !== undefined && bid > 0 && ask > 0) out[pair.toUpperCase()] = { ask, bid };
  }
  if (Object.keys(out).length === 0) throw new ProviderFormatError('mercado-bitcoin /tickers: no pair with a bid and an ask');
  return out;
}

/** Foxbit v3 /markets/{symbol}/ticker/24hr: data[0].best.ask.price and best.bid.price. */
export function parseFoxbitTicker(body: unknown): BookTop {
  const row = isRecord(body) && Array.isArray(body.data) && isRecord(body.data[0]) ? body.data[0] : undefined;
  const best = row && isRecord(row.best) ? row.best : undefined;
  const ask = best && isRecord(best.ask) ? toNumber(best.ask.price) : undefined;
  const bid = best && isRecord(best.bid) ? toNumber(best.bid.price) : undefined;
  if (ask === undefined || bid === undefined || ask <= 0 || bid <= 0) throw new ProviderFormatError('foxbit ticker: best ask/bid missing');
  return { ask, bid };
}
