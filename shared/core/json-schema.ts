/**
 * JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) for what the API answers. Each entity declares
 * its schema once, next to its view type, with objectSchema: the compiler holds the schema's
 * properties to the type's fields, so a field added to a view fails to compile until its schema
 * names it. The OpenAPI document collects them as named components (api/openapi/components.ts).
 */
export type JsonSchema = Record<string, unknown>;

/** The keys of T that may be absent. */
type OptionalKey<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

const described = (schema: JsonSchema, description?: string): JsonSchema => (description ? { ...schema, description } : schema);

export const string = (description?: string): JsonSchema => described({ type: 'string' }, description);
export const number = (description?: string): JsonSchema => described({ type: 'number' }, description);
export const integer = (description?: string): JsonSchema => described({ type: 'integer' }, description);
export const boolean = (description?: string): JsonSchema => described({ type: 'boolean' }, description);
export const oneOfValues = (values: readonly (string | number | boolean)[], description?: string): JsonSchema =>
  described({ enum: [...values] }, description);
export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => described({ type: 'array', items }, description);
/** A reference to a named component. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The schema, or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** An epoch-milliseconds timestamp. */
export const epochMs = (description = 'epoch milliseconds'): JsonSchema => integer(description);

/**
 * An object schema whose properties are exactly the fields of T; `optional` names every field of T
 * that may be absent (the rest are required), so it cannot drift from the type either.
 */
export function objectSchema<T extends object>(
  description: string,
  properties: { [K in keyof T]-?: JsonSchema },
  optional: { [K in OptionalKey<T>]: true },
): JsonSchema {
  const absent = new Set(Object.keys(optional));
  return {
    type: 'object',
    description,
    properties,
    required: Object.keys(properties).filter((name) => !absent.has(name)),
  };
}

/** A route's answer: an object with these properties, all required but the `optional` ones. */
export function bodySchema(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties).filter((name) => !optional.includes(name)) };
}

/** The `ok: true` of a v1 answer (v2 moves it out of its data). */
export const okTrue: JsonSchema = { const: true };
