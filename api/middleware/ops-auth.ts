/**
 * Operator authentication for the /ops routes (the queue dashboard) and GET /metrics: the operator token
 * (OPS_TOKEN) as `Authorization: Bearer <token>`, or as HTTP basic with user `ops` and the token as password
 * (what a browser's prompt sends). Compared in constant time: both sides are hashed to SHA-256 first, so
 * timingSafeEqual compares equal lengths and the time taken says nothing about the token or its length.
 * With no token configured every request answers the 404 of an unknown path, so a deployment that never set
 * one exposes nothing and does not even show the routes exist.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../shared/core/errors.js';
import type { ApiRequest, Middleware } from '../routing/http-types.js';
import { routeNotFound } from './error-handler.js';

/** The user name HTTP basic credentials must carry; the password is the token. */
export const OPS_USER = 'ops';
/** Sent with every 401, so a browser asks for the user and password. */
export const OPS_CHALLENGE = 'Basic realm="perpdesk ops"';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const BASIC = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i;

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** The token the request presents (bearer, or basic with the right user), else null. */
function presentedToken(header: string | undefined): { user: string; token: string } | null {
  if (header === undefined) return null;
  const bearer = BEARER.exec(header);
  if (bearer) return { user: OPS_USER, token: bearer[1]! };
  const basic = BASIC.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}

/** Whether the request carries the token; the token comparison takes the same time whatever it holds. */
function hasOpsToken(req: ApiRequest, expected: Buffer): boolean {
  const presented = presentedToken(req.headers.authorization);
  if (presented === null) return false;
  const tokenMatches = timingSafeEqual(digest(presented.token), expected);
  return tokenMatches && presented.user === OPS_USER;
}

const unauthorized = (): AppError =>
  new AppError('ops_unauthorized', `operator routes need the OPS_TOKEN: as a bearer token, or HTTP basic with user ${OPS_USER}`);

/**
 * The operator gate: next() with the token, 401 ops_unauthorized (with a basic challenge) without it, and the
 * unknown path's 404 when `token` is undefined (OPS_TOKEN unset). Mount it before every operator route.
 */
export function opsAuth(token: string | undefined): Middleware {
  if (token === undefined) return (req, _res, next) => next(routeNotFound(req));
  const expected = digest(token);
  return (req, res, next) => {
    if (hasOpsToken(req, expected)) return next();
    res.setHeader('WWW-Authenticate', OPS_CHALLENGE);
    next(unauthorized());
  };
}
