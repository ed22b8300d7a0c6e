/** Request schemas of /sim and /realism, built from the profile's field table (shared/engine/sim-profile.ts): one set of ranges. */
import Joi from 'joi';
import { MARGIN_VENUES } from '../../../shared/engine/margin-model.js';
import { PRESET_NAMES, SIM_FIELDS, type FieldKind } from '../../../shared/engine/sim-profile.js';
import type { FieldMeta } from '../../routing/validate.js';

const OUT_OF_RANGE: FieldMeta = {
  codes: {
    'number.min': 'sim_out_of_range',
    'number.max': 'sim_out_of_range',
    'number.integer': 'sim_out_of_range',
    'number.infinity': 'sim_out_of_range',
    'alternatives.any': 'sim_out_of_range',
    'alternatives.types': 'sim_out_of_range',
  },
};

/** "" read as null; anything else is not a number. */
const blankAsNull = Joi.any().custom((value: unknown, helpers) => (value === '' ? null : helpers.error('number.base')));

const VENUES = ['', ...MARGIN_VENUES.map((v) => v.venue)].join(', ');

/** A margin venue name as sent (checked against the venues by the service, so an unknown one answers unknown_margin_venue). */
const marginVenue = () => Joi.string().trim().lowercase().max(40).allow('', null);

function fieldSchema(kind: FieldKind, meaning: string): Joi.Schema {
  switch (kind.type) {
    case 'boolean':
      return Joi.boolean().description(meaning);
    case 'venue':
      return marginVenue().description(`${meaning}: ${VENUES}`);
    case 'impact':
      return Joi.alternatives()
        .try(Joi.number().min(kind.min).max(kind.max), Joi.string().valid('book'))
        .meta(OUT_OF_RANGE)
        .messages({
          'alternatives.any': `{#label} must be a number from ${kind.min} to ${kind.max}, or "book"`,
          'alternatives.types': `{#label} must be a number from ${kind.min} to ${kind.max}, or "book"`,
        })
        .description(`${meaning}; ${kind.min} to ${kind.max}`);
    case 'number': {
      let schema = Joi.number().min(kind.min).max(kind.max);
      if (kind.integer) schema = schema.integer();
      if (!kind.nullable) return schema.meta(OUT_OF_RANGE).description(`${meaning}; ${kind.min} to ${kind.max}`);
      // null, or "" as the original's Python client sends it, clears the field back to the tables
      return Joi.alternatives()
        .try(schema.allow(null), blankAsNull)
        .meta(OUT_OF_RANGE)
        .description(`${meaning}; ${kind.min} to ${kind.max}, or null or "" for the tables`);
    }
  }
}

export const simBody = Joi.object({
  ...Object.fromEntries(Object.entries(SIM_FIELDS).map(([name, spec]) => [name, fieldSchema(spec.kind, spec.meaning)])),
  preset: Joi.string()
    .trim()
    .lowercase()
    .max(40)
    .description(`A preset under the fields sent: ${PRESET_NAMES.join(', ')}`),
  reset: Joi.boolean().description('true: back to the engine defaults first (then the preset, then the fields sent)'),
});

export const realismBody = Joi.object({
  slippage: Joi.boolean().description('Slippage on market fills'),
  margin_tiers: Joi.boolean().description('Maintenance margin rises with notional along the tiers'),
  margin_venue: marginVenue().description(`A margin venue (${VENUES}); "" or null for none`),
});
