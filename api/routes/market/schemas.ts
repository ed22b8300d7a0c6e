import Joi from 'joi';
import type { ErrorCode } from '../../../shared/core/errors.js';
import type { FieldMeta } from '../../routing/validate.js';

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });

/** A ticker as users write it: BTC, BTCUSDT, btc, BTC-USDT. */
export const symbolParam = () =>
  Joi.string()
    .trim()
    .max(40)
    .required()
    .meta(codes({ 'any.required': 'missing_symbol', 'string.empty': 'missing_symbol' }))
    .description('Ticker without the quote suffix (BTC); BTCUSDT is accepted too');

/** Interval spellings accepted by the public klines route, in minutes. */
export const PUBLIC_INTERVALS: Record<string, number> = {
  '1': 1,
  '5': 5,
  '15': 15,
  '60': 60,
  '240': 240,
  '1440': 1440,
  '10080': 10080,
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '1h': 60,
  '4h': 240,
  '1d': 1440,
  '1w': 10080,
};

/** Intervals of the bot klines route, in minutes. */
export const BOT_INTERVALS: Record<string, number> = {
  '1': 1,
  '5': 5,
  '15': 15,
  '30': 30,
  '60': 60,
  '240': 240,
  '1440': 1440,
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '4h': 240,
  '1d': 1440,
};

export const DEFAULT_KLINES_INTERVAL = '60';
export const DEFAULT_KLINES_LIMIT = 200;
export const MAX_KLINES_LIMIT = 1000;

const interval = (allowed: Record<string, number>) =>
  Joi.string()
    .trim()
    .lowercase()
    .valid(...Object.keys(allowed))
    .default(DEFAULT_KLINES_INTERVAL)
    .meta(codes({ 'any.only': 'bad_interval' }))
    .description('Minutes per candle (or 1m, 5m, 1h, 4h, 1d...)');

const klinesQuery = (allowed: Record<string, number>) =>
  Joi.object({
    symbol: symbolParam(),
    interval: interval(allowed),
    limit: Joi.number().integer().min(1).max(MAX_KLINES_LIMIT).default(DEFAULT_KLINES_LIMIT).description(`Candles, 1..${MAX_KLINES_LIMIT}`),
    end: Joi.number().integer().min(0).max(8.64e15).description('Newest candle open time wanted, unix ms; pages backwards'),
  });

/** What a route that reads one symbol's market data may answer besides a validation error. */
export const SYMBOL_ERRORS: ErrorCode[] = ['unknown_symbol', 'upstream_unavailable'];
/** Candle routes: a range Redis does not hold goes to the exchanges, within their budget for calls users drive. */
export const HISTORY_ERRORS: ErrorCode[] = [...SYMBOL_ERRORS, 'upstream_busy'];

export const priceQuery = Joi.object({ symbol: symbolParam() });
export const publicKlinesQuery = klinesQuery(PUBLIC_INTERVALS);
export const botKlinesQuery = klinesQuery(BOT_INTERVALS);
export const timeQuery = Joi.object({
  client_ts: Joi.number().integer().min(0).max(8.64e15).description('The client clock, unix ms: the answer carries drift_ms'),
});
