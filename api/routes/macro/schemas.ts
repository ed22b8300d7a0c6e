import Joi from 'joi';
import { CATEGORY_ID } from '../../../shared/macro/coin-categories.js';
import { CALENDAR_FIRST_YEAR, CALENDAR_LAST_YEAR } from '../../../shared/macro/calendar/calendar-events.js';
import type { FieldMeta } from '../../routing/validate.js';

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });

export const calendarQuery = Joi.object({
  year: Joi.number()
    .integer()
    .min(CALENDAR_FIRST_YEAR)
    .max(CALENDAR_LAST_YEAR)
    .description(`Calendar year, ${CALENDAR_FIRST_YEAR} to ${CALENDAR_LAST_YEAR}; omitted: the next 90 days`),
});

export const coinsQuery = Joi.object({
  cat: Joi.string()
    .trim()
    .lowercase()
    .allow('')
    .pattern(CATEGORY_ID)
    .meta(codes({ 'string.pattern.base': 'unknown_category', 'string.max': 'unknown_category' }))
    .description('CoinGecko category id, e.g. layer-1, meme-token, decentralized-finance-defi; omitted: all coins'),
});
