import type Joi from 'joi';
import { AppError, ERROR_CODES, type ErrorCode } from '../../shared/core/errors.js';

/**
 * A field can name the error code for one of its rules with `.meta({ codes: { 'number.greater': 'leverage_min' } })`,
 * so the rule and its code stay side by side in the schema (and reach the OpenAPI document).
 */
export interface FieldMeta {
  codes?: Partial<Record<string, ErrorCode>>;
}

const codeCache = new WeakMap<Joi.ObjectSchema, Map<string, Partial<Record<string, ErrorCode>>>>();

function fieldCodes(schema: Joi.ObjectSchema): Map<string, Partial<Record<string, ErrorCode>>> {
  let cached = codeCache.get(schema);
  if (cached) return cached;
  cached = new Map();
  const description = schema.describe() as { keys?: Record<string, { metas?: FieldMeta[] }> };
  for (const [name, field] of Object.entries(description.keys ?? {})) {
    const codes = Object.assign({}, ...(field.metas ?? []).map((meta) => meta.codes ?? {}));
    cached.set(name, codes);
  }
  codeCache.set(schema, cached);
  return cached;
}

function isErrorCode(value: string | undefined): value is ErrorCode {
  return value !== undefined && value in ERROR_CODES;
}

/** Validates request input; a violation becomes a 400 with a named code and the parameter's name. */
export function validateInput<T>(schema: Joi.ObjectSchema, input: unknown): T {
  const { value, error } = schema.validate(input, { abortEarly: true, convert: true, stripUnknown: true });
  if (!error) return value as T;
  const detail = error.details[0];
  const param = detail ? detail.path.join('.') : '';
  const specific = detail ? fieldCodes(schema).get(String(detail.path[0]))?.[detail.type] : undefined;
  const code: ErrorCode = isErrorCode(specific) ? specific : detail?.type === 'any.required' ? 'missing_param' : 'invalid_param';
  const message = detail ? detail.message.replace(/"/g, '') : error.message;
  throw new AppError(code, param ? message : `invalid input: ${message}`, param ? { param } : {});
}
