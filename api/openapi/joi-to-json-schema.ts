import type { JsonSchema } from '../../shared/core/json-schema.js';

/** The subset of Joi's describe() output that our request schemas use. */
interface JoiDescription {
  type: string;
  flags?: { presence?: string; default?: unknown; description?: string; only?: boolean };
  rules?: { name: string; args?: { limit?: unknown } }[];
  allow?: unknown[];
  keys?: Record<string, JoiDescription>;
  items?: JoiDescription[];
  metas?: { codes?: Record<string, string> }[];
}

const NUMERIC_RULES: Record<string, string> = {
  min: 'minimum',
  max: 'maximum',
  greater: 'exclusiveMinimum',
  less: 'exclusiveMaximum',
};

const LENGTH_RULES: Record<string, string> = { min: 'minLength', max: 'maxLength' };

/** Converts one described Joi schema to JSON Schema (draft 2020-12, as OpenAPI 3.1 uses). */
export function toJsonSchema(description: JoiDescription): JsonSchema {
  const schema: JsonSchema = {};
  const type = description.type === 'any' ? undefined : description.type;
  if (type) schema.type = type === 'date' ? 'string' : type;
  for (const rule of description.rules ?? []) {
    const limit = rule.args?.limit;
    if (rule.name === 'integer') schema.type = 'integer';
    else if (type === 'number' && NUMERIC_RULES[rule.name] && typeof limit === 'number') schema[NUMERIC_RULES[rule.name]] = limit;
    else if (type === 'string' && LENGTH_RULES[rule.name] && typeof limit === 'number') schema[LENGTH_RULES[rule.name]] = limit;
  }
  if (description.flags?.only && description.allow) schema.enum = description.allow;
  if (description.flags?.default !== undefined && typeof description.flags.default !== 'function') {
    schema.default = description.flags.default;
  }
  if (description.flags?.description) schema.description = description.flags.description;
  const codes = Object.assign({}, ...(description.metas ?? []).map((meta) => meta.codes ?? {}));
  if (Object.keys(codes).length > 0) schema['x-error-codes'] = Object.values(codes);
  if (description.keys) {
    schema.properties = Object.fromEntries(Object.entries(description.keys).map(([name, child]) => [name, toJsonSchema(child)]));
    const required = Object.entries(description.keys)
      .filter(([, child]) => child.flags?.presence === 'required')
      .map(([name]) => name);
    if (required.length > 0) schema.required = required;
  }
  if (description.items?.[0]) schema.items = toJsonSchema(description.items[0]);
  return schema;
}

export function describeFields(description: JoiDescription): { name: string; required: boolean; schema: JsonSchema }[] {
  return Object.entries(description.keys ?? {}).map(([name, child]) => {
    const schema = toJsonSchema(child);
    const { description: text, ...rest } = schema;
    return { name, required: child.flags?.presence === 'required', schema: { ...rest, ...(text ? { description: text } : {}) } };
  });
}

export type { JoiDescription };
