import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from '../routing/http-types.js';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The token an Authorization header carries: `Bearer <token>`, or HTTP basic with user `ops`. */
function offeredToken(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (!header) return undefined;
  const space = header.indexOf(' ');
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === 'bearer') return value;
  if (scheme !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && decoded.slice(0, colon) === 'ops' ? decoded.slice(colon + 1) : undefined;
}

/** Whether the headers carry the operator token; compared in constant time (digests of equal length). */
export function hasOpsToken(headers: IncomingHttpHeaders, token: string): boolean {
  const offered = offeredToken(headers);
  return offered !== undefined && timingSafeEqual(digest(offered), digest(token));
}

/**
 * Operator authentication of /ops and /metrics: with no token configured the path answers 404 (nothing is
 * exposed by default); without the right token, 401 with a basic challenge (a browser asks for it).
 */
export function opsAuth(token: string | undefined): Middleware {
  return (req, res, next) => {
    if (token === undefined) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ ok: false, error: { code: 'not_found', message: 'not found' } }));
      return;
    }
    if (hasOpsToken(req.headers, token)) return next();
    res.statusCode = 401;
    res.setHeader('WWW-Authenticate', 'Basic realm="perpdesk ops", charset="UTF-8"');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ ok: false, error: { code: 'unauthorized', message: 'operator token required' } }));
  };
}
