/** The /ai request body and the JSON schema of its answer. */
import Joi from 'joi';
import { bodySchema, integer, nullable, okTrue, oneOfValues, ref, string, type JsonSchema } from '../../../shared/core/json-schema.js';
import { ANSWER_LANGS } from '../../../shared/ai/brief.js';
import type { FieldMeta } from '../../routing/validate.js';
import { BOT_INTERVALS, DEFAULT_KLINES_INTERVAL } from '../market/schemas.js';

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });

export const aiBody = Joi.object({
  symbol: Joi.string()
    .trim()
    .max(40)
    .required()
    .meta(codes({ 'any.required': 'symbol_required', 'string.empty': 'symbol_required', 'string.base': 'symbol_required' }))
    .description('Ticker: BTC or BTCUSDT'),
  interval: Joi.alternatives()
    .try(
      Joi.string()
        .trim()
        .lowercase()
        .valid(...Object.keys(BOT_INTERVALS)),
      // a JSON number of minutes, read as its string (60 as "60"); valid() would return it unchanged, so the rule checks it
      Joi.number().custom((minutes: number, helpers) =>
        String(minutes) in BOT_INTERVALS ? String(minutes) : helpers.error('any.only', { valids: Object.keys(BOT_INTERVALS) }),
      ),
    )
    .default(DEFAULT_KLINES_INTERVAL)
    .meta(
      codes({
        'any.only': 'bad_interval',
        'string.base': 'bad_interval',
        'alternatives.match': 'bad_interval',
        'alternatives.types': 'bad_interval',
      }),
    )
    .description(
      'Candle interval of the indicators: minutes (1, 5, 15, 30, 60, 240, 1440, as a JSON number or a string) or 1m, 1h, 4h, 1d; ' +
        'default 60',
    ),
  question: Joi.string().trim().min(1).max(500).required().description('The question, up to 500 characters'),
  lang: Joi.string()
    .trim()
    .lowercase()
    .valid(...ANSWER_LANGS)
    .default('en')
    .description('Language of the answer: en (default), es or pt'),
});

export const aiResponse: JsonSchema = bodySchema(
  {
    ok: okTrue,
    answer: string('The answer, in the language asked'),
    plan: nullable(ref('AiPlan')),
    bias: oneOfValues(['long', 'short', 'neutral']),
    brief: ref('AiBrief'),
    analyst: string('built-in, or provider:<model> when the configured provider answered'),
    fallback_reason: string('Why the provider answer was not used (the built-in one was)'),
    reads: bodySchema({ used: integer(), limit: integer('Reads per day of the plan'), left: integer() }),
  },
  ['fallback_reason'],
);
