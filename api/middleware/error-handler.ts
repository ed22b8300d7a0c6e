import { AppError, isAppError } from '../../shared/core/errors.js';
import type { Logger } from '../../shared/core/logger.js';
import { isRedisUnreachable, redisRefusal } from '../../shared/core/redis-unreachable.js';
import { redisRefusals } from '../../shared/metrics/metrics.js';
import type { ApiRequest, ApiResponse, Next } from '../routing/http-types.js';
import { sendJsonText } from '../routing/json-text.js';
import type { RouteCatalog } from '../routing/route-catalog.js';
import { redisUnavailable } from './redis-gate.js';

/** Bot v1 kept the original's flat error body; everything else answers in the envelope. */
export function isBotV1(path: string): boolean {
  return path.startsWith('/api/bot/v1/') || path === '/api/bot/v1';
}

export function sendError(req: ApiRequest, res: ApiResponse, error: AppError): void {
  if (res.headersSent) return;
  res.statusCode = error.status;
  // a retryable error says when (busy, unavailable, rate_limited)
  if (typeof error.details.retry_after === 'number') res.setHeader('Retry-After', String(error.details.retry_after));
  const body = isBotV1(req.baseUrl + req.path)
    ? { error: error.code, message: error.message, ...error.details }
    : { ok: false, error: { code: error.code, message: error.message, ...error.details }, ts: Date.now() };
  sendJsonText(res, JSON.stringify(body));
}

/** /api/bot/v1/... or /api/bot/v2/...: the version's prefix. */
const BOT_VERSION_PREFIX = /^\/api\/bot\/v[12]\//;

/**
 * The path as requested, also from a mounted middleware: its baseUrl and path, except that Express gives a request
 * for the mount point itself (/ops) the path '/', which the request did not have.
 */
function requestedPath(req: ApiRequest): string {
  if (req.baseUrl === '' || req.path !== '/') return req.baseUrl + req.path;
  return /^[^?#]*\/(?:[?#]|$)/.test(req.originalUrl) ? `${req.baseUrl}/` : req.baseUrl;
}

/** The 404 of a path nothing serves, naming the path as requested. */
export function routeNotFound(req: ApiRequest, details: Record<string, unknown> = {}): AppError {
  return new AppError('not_found', `no route for ${req.method} ${requestedPath(req)}`, details);
}

/**
 * An unknown path answers 404 not_found; under the bot API it also lists that version's routes as
 * `endpoints`, as the original does (v2 carries them in its error object).
 */
export function notFoundHandler(catalog: RouteCatalog) {
  return (req: ApiRequest, res: ApiResponse): void => {
    const botPrefix = BOT_VERSION_PREFIX.exec(req.baseUrl + req.path)?.[0];
    sendError(req, res, routeNotFound(req, botPrefix ? { endpoints: catalog.endpoints(botPrefix) } : {}));
  };
}

interface HttpLikeError {
  status?: number;
  type?: string;
}

/**
 * The named error of anything thrown: an AppError as is, a body parser's refusal, Redis unreachable as 503
 * unavailable; null for an unexpected error (a bug: the caller logs it and answers 500 internal). The MCP
 * tools name their errors through it too.
 */
export function namedError(error: unknown): AppError | null {
  if (isAppError(error)) return error;
  const httpError = error as HttpLikeError;
  if (httpError?.type === 'entity.parse.failed') return new AppError('invalid_json', 'the request body is not valid JSON');
  if (httpError?.type === 'entity.too.large') return new AppError('payload_too_large', 'the request body is too large');
  if (typeof httpError?.status === 'number' && httpError.status >= 400 && httpError.status < 500) {
    return new AppError('invalid_param', 'the request could not be read');
  }
  // Redis full (maxmemory) refuses writes before changing anything; a timed-out command is as uncertain as a lost
  // connection: both answer 503 like an outage, and are counted (an operator's alert, not a log line per request)
  const refusal = redisRefusal(error);
  if (refusal !== null) {
    redisRefusals.labels(refusal).inc();
    return redisUnavailable();
  }
  // the connection logs the outage itself; each request it fails answers 503 and is retried by its client
  if (isRedisUnreachable(error)) return redisUnavailable();
  return null;
}

/**
 * Turns anything thrown into a named error (namedError); an unexpected one is logged with its stack and answered 500
 * internal. `send` answers it: our bodies, or an exchange dialect's (api/binance).
 */
export function errorHandler(logger: Logger, send: typeof sendError = sendError) {
  return (error: unknown, req: ApiRequest, res: ApiResponse, _next: Next): void => {
    const named = namedError(error);
    if (named?.logDetails) logger.warn({ reqId: res.locals.requestId, code: named.code, ...named.logDetails }, 'error details');
    if (named) return send(req, res, named);
    logger.error({ err: error, reqId: res.locals.requestId, path: req.baseUrl + req.path }, 'unhandled error');
    send(req, res, new AppError('internal', 'internal error'));
  };
}
