/** The JSON schemas of /sim and /realism (the OpenAPI components SimProfile, Sim, Realism, RealismSwitches). */
import { arrayOf, boolean, bodySchema, integer, nullable, number, okTrue, ref, string, type JsonSchema } from '../../core/json-schema.js';
import { PRESET_NAMES, SIM_FIELD_NAMES, SIM_FIELDS, type SimField } from '../../engine/sim-profile.js';

/** A field's value as JSON Schema, from its kind (sim-profile.ts). */
function valueSchema(field: SimField): JsonSchema {
  const { kind, meaning } = SIM_FIELDS[field];
  switch (kind.type) {
    case 'boolean':
      return boolean(meaning);
    case 'venue':
      return string(meaning);
    case 'impact':
      return { anyOf: [{ type: 'number', minimum: kind.min, maximum: kind.max }, { const: 'book' }], description: meaning };
    case 'number': {
      const schema: JsonSchema = { type: kind.integer ? 'integer' : 'number', minimum: kind.min, maximum: kind.max, description: meaning };
      return kind.nullable ? nullable(schema) : schema;
    }
  }
}

export const simProfileSchema: JsonSchema = {
  type: 'object',
  description: "A book's simulation profile: every field, always present",
  properties: Object.fromEntries(SIM_FIELD_NAMES.map((f) => [f, valueSchema(f)])),
  required: [...SIM_FIELD_NAMES],
};

export const realismSwitchesSchema = bodySchema({
  slippage: boolean(),
  margin_tiers: boolean(),
  margin_venue: string('"" for none'),
});

const fieldView = bodySchema(
  {
    group: { enum: ['book', 'fill', 'cost', 'liquidation'] },
    type: string(),
    min: number(),
    max: number(),
    integer: boolean(),
    nullable: boolean(),
    values: arrayOf(string()),
    default: { description: 'The engine default' },
    meaning: string(),
  },
  ['min', 'max', 'integer', 'nullable', 'values'],
);

export const simSchema: JsonSchema = bodySchema({
  sim: ref('SimProfile'),
  label: string('The preset the profile is exactly, default, or custom'),
  realism: ref('RealismSwitches'),
  reject_seed: integer('Seed of the book’s reject draws'),
  fields: bodySchema(Object.fromEntries(SIM_FIELD_NAMES.map((f) => [f, fieldView]))),
  presets: bodySchema(Object.fromEntries(PRESET_NAMES.map((p) => [p, bodySchema({ values: ref('SimProfile'), source: string() })]))),
  note: string(),
});

export const realismSchema: JsonSchema = bodySchema({
  realism: ref('RealismSwitches'),
  defaults: ref('RealismSwitches'),
  effective: bodySchema({
    slippage_pct: { type: ['object', 'null'], description: 'The slippage rates an open pays now, percent; null when off' },
    maintenance_base_pct: number(),
    maintenance_base: { enum: ['flat', 'venue', 'override'] },
    margin_tiers: boolean(),
  }),
  margin_venues: arrayOf(bodySchema({ venue: string(), mmr_pct: number('Base maintenance margin, percent'), source: string() })),
  tiers: arrayOf(bodySchema({ tier: integer(), from_usd: number(), to_usd: nullable(number()), mmr_pct: number() })),
  explain: bodySchema({ slippage: string(), margin_tiers: string(), margin_venue: string(), mmr_pct: string(), positions: string() }),
  applies_to: bodySchema({ slippage: string(), margin_tiers: string(), margin_venue: string(), open_positions: string() }),
});

export const SIM_RESPONSES = {
  realism: ref('Realism'),
  realismSet: bodySchema({ ok: okTrue, realism: ref('RealismSwitches') }),
  sim: ref('Sim'),
  simSet: bodySchema({ ok: okTrue, sim: ref('SimProfile'), label: string(), realism: ref('RealismSwitches') }),
};
