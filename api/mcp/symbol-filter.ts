/** The optional symbol argument of the market tools whose route answers every symbol at once. */
import Joi from 'joi';
import { canonicalSymbol } from '../../shared/market/canonical-symbol.js';
import type { AnswerFilter } from './tool-spec.js';

const schema = Joi.object({
  symbol: Joi.string().trim().max(40).description('Optional ticker (BTC, BTCUSDT, btc-usdt): keep only its row; omitted: every row'),
});

interface Row {
  symbol?: unknown;
  pair?: unknown;
}

const rowPair = (row: Row): string | null => canonicalSymbol(typeof row.pair === 'string' ? row.pair : row.symbol);

/** Keeps the rows of `list` (rows, pairs, coins) whose symbol or pair is the asked one; count follows. */
export function symbolFilter(list: string): AnswerFilter {
  return {
    schema,
    apply(data, args) {
      if (typeof args.symbol !== 'string' || data === null || typeof data !== 'object') return data;
      const wanted = canonicalSymbol(args.symbol);
      const record = data as Record<string, unknown>;
      const rows = Array.isArray(record[list]) ? (record[list] as Row[]) : [];
      const kept = rows.filter((row) => row !== null && typeof row === 'object' && rowPair(row) === wanted);
      return { ...record, [list]: kept, ...('count' in record ? { count: kept.length } : {}) };
    },
  };
}
