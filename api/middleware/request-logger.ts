import { randomUUID } from 'node:crypto';
import type { Logger } from '../../shared/core/logger.js';
import type { Middleware } from '../routing/http-types.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * One JSON log line per request (at info; 5xx at error) with a request id that is echoed back as
 * X-Request-Id and kept in res.locals.requestId for error logs. Written on pino directly: a child
 * logger per request (what pino-http does) made every cheap request costlier
 * (bench/README.md, design figures).
 */
export function requestLogger(logger: Logger): Middleware {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    res.locals.requestId = id;
    const started = performance.now();
    res.once('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: id,
          method: req.method,
          url: req.originalUrl,
          statusCode: res.statusCode,
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    });
    next();
  };
}
