/**
 * Operator authentication for the /ops routes (the queue dashboard) and GET /metrics: the operator token
 * (OPS_TOKEN) as `Authorization: Bearer <token>`, or as HTTP basic with user `ops` and the token as password
 * (what a browser's prompt sends). Compared in constant time: both sides are hashed to SHA-256 first, so
 * timingSafeEqual compares equal lengths and the time taken says nothing about the token or its length.
 * With no token configured every request answers the 404 of an unknown path, so a deployment that never set
 * one exposes nothing and does not even show the routes exist. Wrong tokens are metered per client (its address, an
 * IPv6 client by its /64): past the budget every credential that client sends, the right one too, answers 429, so
 * guessing on costs the guesser and a late right guess says nothing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../shared/core/errors.js';
import { clientBucket } from '../../shared/rate-limit/client-bucket.js';
import type { CoalescingLimiter, LimitDecision } from '../../shared/rate-limit/coalescing-limiter.js';
import type { ApiRequest, Middleware } from '../routing/http-types.js';
import { routeNotFound } from './error-handler.js';
import { rateLimited } from './rate-limit.js';

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

/** Wrong operator tokens a client may send per minute (BAD_KEY_RATE_LIMIT), counted across pods. */
export interface OpsGuessBudget {
  limiter: CoalescingLimiter;
  perMinute: number;
}

type Presented = 'none' | 'wrong' | 'right';

/** What the request presents; the token comparison takes the same time whatever it holds. */
function judge(req: ApiRequest, expected: Buffer): Presented {
  const presented = presentedToken(req.headers.authorization);
  if (presented === null) return 'none';
  const tokenMatches = timingSafeEqual(digest(presented.token), expected);
  return tokenMatches && presented.user === OPS_USER ? 'right' : 'wrong';
}

const unauthorized = (variable: string): AppError =>
  new AppError('ops_unauthorized', `operator routes need the ${variable}: as a bearer token, or HTTP basic with user ${OPS_USER}`);

/** A wrong token counts one guess; a right one counts none but is refused all the same while the client is over budget. */
async function overBudget(req: ApiRequest, presented: Presented, budget: OpsGuessBudget): Promise<AppError | null> {
  if (presented === 'none') return null;
  const scope = `opsguess:ip:${clientBucket(req.ip)}`;
  const decision: LimitDecision =
    presented === 'wrong' ? await budget.limiter.consume(scope, budget.perMinute) : await budget.limiter.peek(scope, budget.perMinute);
  return decision.allowed ? null : rateLimited(decision, `over the budget of ${budget.perMinute} wrong operator tokens per minute`);
}

/**
 * The operator gate (`variable` names the token's setting in the 401): next() with the token, 401 ops_unauthorized
 * (with a basic challenge) without it, 429 rate_limited once the client sent too many wrong ones, and the unknown
 * path's 404 when `token` is undefined (the variable unset).
 * Mount it before every operator route.
 */
export function opsAuth(token: string | undefined, guesses: OpsGuessBudget, variable = 'OPS_TOKEN'): Middleware {
  if (token === undefined) return (req, _res, next) => next(routeNotFound(req));
  const expected = digest(token);
  const check = async (req: ApiRequest): Promise<Presented> => {
    const presented = judge(req, expected);
    const refused = await overBudget(req, presented, guesses);
    if (refused) throw refused;
    return presented;
  };
  return (req, res, next) => {
    check(req).then((presented) => {
      if (presented === 'right') return next();
      res.setHeader('WWW-Authenticate', OPS_CHALLENGE);
      next(unauthorized(variable));
    }, next);
  };
}
