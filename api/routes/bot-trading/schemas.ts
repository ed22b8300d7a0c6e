/** Request schemas of the trading routes; rules and their error codes side by side. */
import Joi from 'joi';
import { AppError, type ErrorCode } from '../../../shared/core/errors.js';
import { EQUITY_DAYS, EQUITY_STEP_MIN } from '../../../shared/engine/analytics/equity-curve.js';
import { ASSET_CLASSES } from '../../../shared/engine/fees.js';
import { MMR_PCT_RANGE } from '../../../shared/engine/margin-model.js';
import type { Side } from '../../../shared/engine/side.js';
import type { FieldMeta } from '../../routing/validate.js';

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });

/** Printable ASCII without spaces, 1-64 characters: remembered 7 days. */
const clientOrderId = () =>
  Joi.string()
    .trim()
    .min(1)
    .max(64)
    .pattern(/^[\x21-\x7e]+$/)
    .messages({ 'string.pattern.base': '{#label} must be printable characters without spaces (1-64)' })
    .description(
      'Idempotency key (1-64 printable characters), remembered 7 days: a reuse answers with the same result and idempotent true',
    );

const MARGIN_MESSAGES = { 'number.min': '{#label} must be at least 1 USD', 'number.max': '{#label} must be at most 100000 USD' };

const price = () => Joi.number().positive().max(1e12);

/** A resting level: 0 (or below) is no level at all, refused as a missing one is. */
const level = () =>
  price()
    .meta(codes({ 'number.positive': 'limit_price_required' }))
    .messages({ 'number.positive': '{#label} must be a price above 0: a limit or stop entry rests at it' });

const TRAIL_RULE = '{#label} must be 0 (off) or a distance from 0.05 to 50 percent';

/** 0 or absent: off; else 0.05 to 50 percent. */
const trailPct = () =>
  Joi.number()
    .min(0)
    .max(50)
    .custom((value: number, helpers) => (value === 0 || value >= 0.05 ? value : helpers.error('any.invalid')))
    .meta(
      codes({
        'number.base': 'trail_pct_invalid',
        'number.min': 'trail_pct_invalid',
        'number.max': 'trail_pct_invalid',
        'any.invalid': 'trail_pct_invalid',
        'number.infinity': 'trail_pct_invalid',
      }),
    )
    .messages({ 'any.invalid': TRAIL_RULE, 'number.min': TRAIL_RULE, 'number.max': TRAIL_RULE })
    .description('Trailing-stop distance in percent, 0.05-50 (0 = off)');

export const openBody = Joi.object({
  symbol: Joi.string()
    .trim()
    .max(40)
    .required()
    .meta(codes({ 'any.required': 'symbol_required', 'string.empty': 'symbol_required', 'string.base': 'symbol_required' }))
    .description('Ticker: BTC or BTCUSDT (any spelling the price route accepts)'),
  side: Joi.any().description('long or short; also buy, sell, b, l, s, bid, ask, up, down, bull, bear, 1, -1; any case'),
  margin_usd: Joi.number()
    .required()
    .min(1)
    .max(100_000)
    .meta(codes({ 'number.min': 'margin_usd_min_1', 'number.max': 'margin_usd_max_100000' }))
    .messages(MARGIN_MESSAGES)
    .description('Margin in USD, 1 to 100000 (not debited: margin_enforced is false)'),
  leverage: Joi.number()
    .required()
    .min(1)
    .meta(codes({ 'number.min': 'leverage_min' }))
    .messages({ 'number.min': '{#label} must be at least 1 (1x: no leverage)' })
    .description(
      "Multiple, 1 up to the symbol's max_leverage from /markets: 1000 on BTC, ETH, SOL, XRP, DOGE, HYPE, PEPE, 100 to 200 on other " +
        'coins by 24 h volume (above it: leverage_max with max and requested)',
    ),
  sl: price().allow(null).description('Stop-loss price: below the entry for a long, above for a short'),
  tp: price().allow(null).description('Take-profit price: above the entry for a long, below for a short'),
  trail_pct: trailPct(),
  type: Joi.string()
    .trim()
    .lowercase()
    .valid('market', 'limit', 'stop')
    .description('market (default), or limit or stop: a resting entry at limit_price'),
  limit_price: level().description(
    'Level of a limit or stop entry (required with them, above 0; at most 50% away from the market): limit long below the market, ' +
      'short above; stop long above, short below',
  ),
  stop_price: level().description('Alias of limit_price'),
  client_order_id: clientOrderId(),
  dry_run: Joi.boolean().description(
    'Price and validate, write nothing: answers leverage_max, fee_venue (null without one) and, with a venue, ' +
      'fee_vs_marginpad_default_usd (also as fee_vs_default_usd)',
  ),
  fee_venue: Joi.string()
    .trim()
    .max(40)
    .allow(null)
    .description('Fee venue for this position (crypto only); null: the class rates; absent: the account venue'),
  mmr_pct: Joi.number()
    .min(MMR_PCT_RANGE.min)
    .max(MMR_PCT_RANGE.max)
    .meta(codes({ 'number.min': 'sim_out_of_range', 'number.max': 'sim_out_of_range', 'number.infinity': 'sim_out_of_range' }))
    .description(
      `Base maintenance margin for this open, percent of notional, ${MMR_PCT_RANGE.min} to ${MMR_PCT_RANGE.max} (default: the book's, ` +
        `0.5 or its margin venue)`,
    ),
  slippage: Joi.boolean().description("Realism for this fill only: slippage on or off over the book's setting (/realism)"),
  margin_tiers: Joi.boolean().description("Realism for this fill only: margin tiers on or off over the book's setting (/realism)"),
  reduce_only: Joi.any().description('Not supported (400 reduce_only_unsupported when true)'),
  post_only: Joi.any().description('Not supported (400 post_only_unsupported when true)'),
  margin_mode: Joi.any().description('Margin is isolated; anything else answers margin_mode_unsupported'),
});

/** A required id of up to 80 characters; missing, empty or not a string answers `code`. */
const idParam = (code: ErrorCode, description: string) =>
  Joi.string()
    .trim()
    .max(80)
    .required()
    .meta(codes({ 'any.required': code, 'string.empty': code, 'string.base': code }))
    .description(description);

const positionId = () => idParam('id_required', 'Position id');

const PCT_RULE = '{#label} is the percent of the position to close: from 1 to 100';

export const closeBody = Joi.object({
  id: positionId(),
  pct: Joi.number()
    .min(1)
    .max(100)
    .messages({ 'number.min': PCT_RULE, 'number.max': PCT_RULE })
    .description('Percent to close, 1-100 (default 100); below 100 splits the position'),
  symbol: Joi.string().trim().max(40).description("The position's symbol, if known: the close reads its price alongside the position"),
  client_order_id: clientOrderId(),
});

export const sltpBody = Joi.object({
  id: positionId(),
  sl: price().allow(null).description('A number sets the stop-loss, null clears it, absent keeps it'),
  tp: price().allow(null).description('A number sets the take-profit, null clears it, absent keeps it'),
  trail_pct: trailPct().allow(null),
});

export const resetBody = Joi.object({
  confirm: Joi.any().description('Must be true'),
});

export const feesBody = Joi.object({
  venue: Joi.string()
    .trim()
    .max(40)
    .allow(null, '')
    .required()
    .description(
      'A venue name (bybit, binance, bitget, gate, hyperliquid, okx, kraken, mexc, kucoin), or null or "" to go back to the class rates',
    ),
});

export const positionsQuery = Joi.object({
  status: Joi.string().trim().lowercase().valid('open', 'closed').description('open (default) or closed'),
  since: Joi.number().integer().min(0).max(8.64e15).description('Unix ms: positions opened or closed at or after it'),
});

export const tradesQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(500).default(100).description('Rows, 1-500 (default 100)'),
  before: Joi.string()
    .trim()
    .pattern(/^\d{1,16}(:[0-9a-z-]{1,64})?$/)
    .messages({ 'string.pattern.base': '{#label} must be the next_before of a previous page, as given (unix ms, or ms:id)' })
    .description('Cursor: next_before of the previous page, as given (unix ms, or ms:id when the page ended inside a millisecond)'),
});

export const marketsQuery = Joi.object({
  class: Joi.string()
    .trim()
    .lowercase()
    .valid(...ASSET_CLASSES)
    .description('crypto, stock, forex, metal or index'),
});

const orderId = () => idParam('order_id_required', 'Order id (lo...)');

export const modifyOrderBody = Joi.object({
  order_id: orderId(),
  limit_price: level().description('New level (above 0); checked against the market now, like at placement'),
  sl: price().allow(null).description('A number sets the stop-loss (checked against limit_price), null clears it, absent keeps it'),
  tp: price().allow(null).description('A number sets the take-profit (checked against limit_price), null clears it, absent keeps it'),
  margin_usd: Joi.number()
    .min(1)
    .max(100_000)
    .meta(codes({ 'number.min': 'margin_usd_min_1', 'number.max': 'margin_usd_max_100000' }))
    .messages(MARGIN_MESSAGES)
    .description('New margin in USD, 1 to 100000'),
  leverage: Joi.number()
    .min(1)
    .meta(codes({ 'number.min': 'leverage_min' }))
    .messages({ 'number.min': '{#label} must be at least 1 (1x: no leverage)' })
    .description("New leverage, 1 up to the symbol's max_leverage"),
  trail_pct: trailPct().allow(null),
});

export const cancelOrderBody = Joi.object({
  order_id: orderId(),
});

const SIDES = new Map<string, Side>([
  ...['long', 'buy', 'b', 'l', 'bid', 'up', 'bull', '1', '+1'].map((name): [string, Side] => [name, 'long']),
  ...['short', 'sell', 's', 'ask', 'down', 'bear', '-1'].map((name): [string, Side] => [name, 'short']),
]);

/** long or short from any accepted spelling, or 400 side_required with the accepted names. */
export function parseSide(raw: unknown): Side {
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : typeof raw === 'number' ? String(raw) : undefined;
  const side = text === undefined ? undefined : SIDES.get(text);
  if (side) return side;
  throw new AppError('side_required', raw === undefined ? 'side is required: long or short' : 'side must be long or short (or buy, sell)', {
    param: 'side',
    accepted: ['long', 'short', 'buy', 'sell'],
  });
}

/** A whole number in a range whose every violation answers the one named code (out of range is refused, never clamped). */
const wholeIn = (min: number, max: number, code: ErrorCode, rule = `{#label} must be a whole number from ${min} to ${max}`) =>
  Joi.number()
    .integer()
    .min(min)
    .max(max)
    .meta(
      codes(
        Object.fromEntries(
          ['number.base', 'number.integer', 'number.min', 'number.max', 'number.infinity', 'number.unsafe'].map((rule) => [rule, code]),
        ),
      ),
    )
    .messages({ '*': rule });

export const equityQuery = Joi.object({
  days: wholeIn(EQUITY_DAYS.min, EQUITY_DAYS.max, 'days_invalid')
    .default(EQUITY_DAYS.default)
    .description(`Days back, ${EQUITY_DAYS.min}-${EQUITY_DAYS.max} (default ${EQUITY_DAYS.default})`),
  step_min: wholeIn(EQUITY_STEP_MIN.min, EQUITY_STEP_MIN.max, 'step_min_invalid').description(
    `Minutes between points, ${EQUITY_STEP_MIN.min}-${EQUITY_STEP_MIN.max} (default 60 up to 14 days, 240 beyond)`,
  ),
});

/** Report depth: a whole number of days from 1; the plan's depth (Free 30, paid 90) is checked by the service (days_beyond_plan). */
export const reportQuery = Joi.object({
  days: wholeIn(1, Number.MAX_SAFE_INTEGER, 'days_invalid', "{#label} must be a whole number of days from 1 (up to the plan's depth)")
    .default(30)
    .description("Days back, 1 to the plan's report depth (Free 30, paid 90; default 30)"),
});
