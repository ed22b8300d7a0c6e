import { AppError } from '../../shared/core/errors.js';
import { rateLimitRejections } from '../../shared/metrics/metrics.js';
import type { ApiKeyResolver, KnownKey, ResolvedApiKey } from '../../shared/paper/api-key-resolver.js';
import { badApiKey, requestApiKey, revokedKey } from './authenticate.js';
import { clientBucket } from '../../shared/rate-limit/client-bucket.js';
import { RATE_WINDOW_MS, windowDecision, type CoalescingLimiter, type LimitDecision } from '../../shared/rate-limit/coalescing-limiter.js';
import type { ApiRequest, ApiResponse, Middleware, RateScope } from '../routing/http-types.js';

export interface RateLimitOptions {
  limiter: CoalescingLimiter;
  keys: ApiKeyResolver;
  publicLimit: number;
  /** Requests with an unknown or revoked key per minute per client IP (a budget of its own); past it they answer 429. */
  badKeyLimit: number;
  /** Starts the reads a keyed request's route will need, so they ride the key gate's round trip (RouteCatalog.prefetcher). */
  prefetch?: (req: ApiRequest, res: ApiResponse, key: KnownKey) => void;
  /** Where a request carries its key; default: X-API-Key or ?api_key= (an exchange dialect reads its own header). */
  readKey?: (req: ApiRequest) => string | null;
}

export function setHeaders(res: ApiResponse, decision: LimitDecision, scope: RateScope): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(decision.resetAt / 1000)));
  res.setHeader('X-RateLimit-Scope', scope);
}

/** The 429 of a spent budget, with the seconds to its reset (sendError turns retry_after into Retry-After). */
export function rateLimited(decision: LimitDecision, message: string): AppError {
  const retryAfter = Math.max(1, Math.ceil((decision.resetAt - Date.now()) / 1000));
  return new AppError('rate_limited', `${message}; retry in ${retryAfter} s`, { limit: decision.limit, retry_after: retryAfter });
}

export interface RefusedKeyCharge {
  decision: LimitDecision;
  /** The 429 to answer once the address is over its budget; null within it (answer the 401). */
  overBudget: AppError | null;
}

/**
 * Charges a refused key (unknown or revoked) to its client's address, on the budget of its own that
 * HTTP requests and stream upgrades share: guessing keys costs the guesser whichever way it comes in.
 */
export async function chargeRefusedKey(limiter: CoalescingLimiter, badKeyLimit: number, ip: string | undefined): Promise<RefusedKeyCharge> {
  const decision = await limiter.consume(`badkey:ip:${clientBucket(ip)}`, badKeyLimit);
  if (!decision.allowed) rateLimitRejections.inc({ scope: 'bad_key' });
  const overBudget = decision.allowed
    ? null
    : rateLimited(decision, `over the budget of ${badKeyLimit} requests per minute with a refused API key from this address`);
  return { decision, overBudget };
}

/** A resolved key's call on its plan budget: as the key gate counted it (resolveMetered), else counted by the limiter now. */
function keyDecision(limiter: CoalescingLimiter, found: ResolvedApiKey): Promise<LimitDecision> {
  const limit = found.requestsPerMinute;
  return found.window
    ? Promise.resolve(windowDecision(found.window.calls, limit, found.window.resetAt))
    : limiter.consume(`key:${found.keyId}`, limit);
}

/**
 * Charges a stream upgrade to its key's per-minute budget, the one the key's HTTP calls use: the 429 to answer past it,
 * else null (an unknown or revoked key too: the stream's own key check refuses it).
 */
export async function chargeKeyedUpgrade(options: Pick<RateLimitOptions, 'limiter' | 'keys'>, apiKey: string): Promise<AppError | null> {
  const found = await (options.keys.resolveMetered?.(apiKey, RATE_WINDOW_MS) ?? options.keys.resolve(apiKey));
  if (found === null || 'revoked' in found) return null;
  const decision = await keyDecision(options.limiter, found);
  if (decision.allowed) return null;
  rateLimitRejections.inc({ scope: 'key' });
  return rateLimited(decision, `over the budget of ${found.requestsPerMinute} requests per minute`);
}

/**
 * Meters a request against its API key's plan budget (the key from X-API-Key or ?api_key=, metered
 * per key id: counted by the key lookup itself when the resolver can, else by the limiter), or its
 * client IP's keyless budget. A refused key (unknown or revoked) is charged to the client IP's
 * bad-key budget, so guessing keys or flooding with one costs the caller: past the budget it
 * answers 429 instead of 401. Only refused keys pay that count; a valid key's path is unchanged.
 * The resolved key stays in res.locals.apiKey for the keyed route's authenticate, so a request
 * looks its key up once. While a key this process has found before is looked up, the route's
 * prefetch (if any) starts its own reads.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const meter = async (req: ApiRequest, res: ApiResponse): Promise<void> => {
    const apiKey = (options.readKey ?? requestApiKey)(req);
    let scope: RateScope = 'ip';
    let scopeKey = '';
    let limit = options.publicLimit;
    let decision: LimitDecision | undefined;
    if (apiKey === null) {
      scopeKey = `ip:${clientBucket(req.ip)}`;
    } else {
      const lookup = options.keys.resolveMetered?.(apiKey, RATE_WINDOW_MS) ?? options.keys.resolve(apiKey);
      const known = options.keys.known?.(apiKey);
      if (known) options.prefetch?.(req, res, known);
      const found = await lookup;
      if (found === null || 'revoked' in found) {
        const charged = await chargeRefusedKey(options.limiter, options.badKeyLimit, req.ip);
        if (charged.overBudget) {
          setHeaders(res, charged.decision, 'bad_key');
          throw charged.overBudget;
        }
        throw found === null ? badApiKey() : revokedKey();
      }
      scope = 'key';
      limit = found.requestsPerMinute;
      res.locals.apiKeyId = found.keyId;
      res.locals.apiKey = found;
      decision = await keyDecision(options.limiter, found);
    }
    res.locals.rateScope = scope;
    res.locals.rateLimit = limit;
    decision ??= await options.limiter.consume(scopeKey, limit);
    setHeaders(res, decision, scope);
    // sendError sets Retry-After from the error's retry_after
    if (!decision.allowed) {
      rateLimitRejections.inc({ scope });
      throw rateLimited(decision, `over the budget of ${limit} requests per minute`);
    }
  };
  return (req, res, next) => {
    meter(req, res).then(() => next(), next);
  };
}
