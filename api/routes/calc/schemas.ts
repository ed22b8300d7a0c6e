import Joi from 'joi';
import type { FieldMeta } from '../../routing/validate.js';

/** Inputs beyond this magnitude are refused rather than producing overflowing results. */
const MAX_MAGNITUDE = 1e15;

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });

const STOP_AT_ENTRY = '{#label} must differ from entry: a stop at the entry risks nothing';

const finite = () => Joi.number().min(-MAX_MAGNITUDE).max(MAX_MAGNITUDE);
const positive = () => Joi.number().greater(0).max(MAX_MAGNITUDE);
const entry = () =>
  positive()
    .required()
    .meta(codes({ 'number.greater': 'entry_min' }))
    .description('Entry price, > 0');
const stopLoss = () =>
  positive()
    .required()
    .invalid(Joi.ref('entry'))
    .meta(codes({ 'any.invalid': 'entry_equals_stop' }))
    .messages({ 'any.invalid': STOP_AT_ENTRY })
    .description('Stop-loss price; must differ from entry');
const leverage = () =>
  positive()
    .meta(codes({ 'number.greater': 'leverage_min' }))
    .description('Leverage multiple, > 0');

/** long or short; buy and sell are accepted as their aliases, in any case. */
export const side = () =>
  Joi.string()
    .trim()
    .lowercase()
    .valid('long', 'short', 'buy', 'sell')
    .custom((value: string) => (value === 'buy' ? 'long' : value === 'sell' ? 'short' : value))
    .default('long')
    .description('long or short (buy and sell accepted)');

export const liquidationQuery = Joi.object({
  entry: entry(),
  leverage: leverage().required(),
  side: side(),
  mmr: Joi.number()
    .min(0)
    .less(100)
    .description(
      'Maintenance margin rate in percent; omitted: 0.5, or 50/leverage from 200x; at least 100/leverage: 400 mmr_crosses_entry',
    ),
});

export const positionSizeQuery = Joi.object({
  balance: positive().required().description('Account balance in dollars'),
  risk: positive().max(100).required().description('Percent of the balance to risk, (0, 100]'),
  entry: entry(),
  stop: stopLoss(),
  leverage: leverage(),
});

export const pnlQuery = Joi.object({
  entry: entry(),
  exit: positive().required().description('Exit price'),
  size: positive().required().description('Position size in units of the asset (not dollars)'),
  leverage: leverage().default(1),
  side: side(),
});

export const riskRewardQuery = Joi.object({
  entry: entry(),
  stop: stopLoss(),
  tp: positive().required().description('Take-profit price'),
});

export const takeProfitQuery = Joi.object({
  entry: entry(),
  roe: finite().required().description('Target return on equity in percent'),
  leverage: leverage().default(1),
  side: side(),
});
