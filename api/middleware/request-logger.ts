import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/core/logger.js';
import type { ApiRequest, ApiResponse, Middleware } from '../routing/http-types.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** The orchestrator's probes: every few seconds per pod, so a success is logged at debug, not info. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * One JSON log line per request (at info; 5xx at error; a successful probe at debug) with a request id that is echoed back as
 * X-Request-Id and kept in res.locals.requestId for error logs. Written on pino directly: a child
 * logger per request (what pino-http does) made every cheap request costlier
 * (bench/README.md, design figures). `observe` (the HTTP metrics) hears each finished request's duration.
 */
export function requestLogger(logger: Logger, observe?: (req: ApiRequest, res: ApiResponse, seconds: number) => void): Middleware {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    res.locals.requestId = id;
    const started = performance.now();
    res.once('finish', () => {
      const elapsed = performance.now() - started;
      observe?.(req, res, elapsed / 1000);
      const probe = PROBES.has(req.originalUrl.split('?')[0] ?? '') && res.statusCode < 400;
      const level = res.statusCode >= 500 ? 'error' : probe ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: id,
          method: req.method,
          url: req.originalUrl,
          statusCode: res.statusCode,
          responseTime: Math.round(elapsed),
        },
        'request completed',
      );
    });
    next();
  };
}
