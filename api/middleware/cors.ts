import type { Middleware } from '../routing/http-types.js';

const EXPOSED = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Scope',
  'Retry-After',
  'X-Request-Id',
  'X-PD-Plan',
  'X-PD-Plan-Expires',
  'X-PD-Plan-Days-Left',
  'ETag',
].join(', ');

/** The public API is meant to be called from any web page. */
export const cors: Middleware = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED);
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.headers['access-control-request-headers'] ?? 'Content-Type, X-API-Key, If-None-Match',
    );
    res.setHeader('Access-Control-Max-Age', '86400');
    res.statusCode = 204;
    res.end();
    return;
  }
  next();
};
