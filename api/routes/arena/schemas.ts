import Joi from 'joi';
import { SEASONS_KEPT } from '../../../shared/engine/arena-season.js';
import type { FieldMeta } from '../../routing/validate.js';

/** Every way a season can be malformed answers the one code; the range (the seasons kept) is checked against the clock by the service. */
const BAD_SEASON: FieldMeta = {
  codes: Object.fromEntries(
    ['number.base', 'number.integer', 'number.min', 'number.unsafe', 'number.infinity'].map((rule) => [rule, 'bad_season']),
  ),
};

export const arenaQuery = Joi.object({
  season: Joi.number()
    .integer()
    .min(1)
    .meta(BAD_SEASON)
    .description(
      `Season number (14-day UTC seasons, season 1 from 2026-01-05); the current one and the ${SEASONS_KEPT} before it; omitted: the ` +
        `current`,
    ),
});
