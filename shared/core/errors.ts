/**
 * Every error code the service answers with, and its HTTP status. v1, v2 and the MCP tools
 * all take codes from here, so a client sees one vocabulary.
 */
export const ERROR_CODES = {
  // request shape
  missing_param: 400,
  invalid_json: 400,
  payload_too_large: 413,
  result_not_finite: 400,
  roe_unreachable: 400,
  invalid_param: 400,
  missing_symbol: 400,
  bad_interval: 400,
  leverage_min: 400,
  entry_min: 400,
  entry_equals_stop: 400,
  // auth and limits
  missing_api_key: 401,
  bad_api_key: 401,
  revoked_key: 401,
  rate_limited: 429,
  // resources
  not_found: 404,
  unknown_symbol: 404,
  // upstream and internals
  upstream_unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields a client may need to act on the error (e.g. the allowed maximum). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code];
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
