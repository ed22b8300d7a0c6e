import { AppError } from '../../shared/core/errors.js';
import type { ApiKeyResolver, KnownKey } from '../../shared/paper/api-key-resolver.js';
import { badApiKey, requestApiKey, revokedKey } from '../../shared/paper/key-context.js';
import { RATE_WINDOW_MS, windowDecision, type CoalescingLimiter, type LimitDecision } from '../../shared/rate-limit/coalescing-limiter.js';
import type { ApiRequest, ApiResponse, Middleware, RateScope } from '../routing/http-types.js';

export interface RateLimitOptions {
  limiter: CoalescingLimiter;
  keys: ApiKeyResolver;
  publicLimit: number;
  /** Starts the reads a keyed request's route will need, so they ride the key gate's round trip (RouteCatalog.prefetcher). */
  prefetch?: (req: ApiRequest, res: ApiResponse, key: KnownKey) => void;
}

function setHeaders(res: ApiResponse, decision: LimitDecision, scope: RateScope): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(decision.resetAt / 1000)));
  res.setHeader('X-RateLimit-Scope', scope);
}

/**
 * Meters a request against its API key's plan budget (the key from X-API-Key or ?api_key=, metered
 * per key id: counted by the key lookup itself when the resolver can, else by the limiter), or its
 * client IP's keyless budget. The resolved key stays in res.locals.apiKey for
 * the keyed route's authenticate, so a request looks its key up once. While a key this process has
 * found before is looked up, the route's prefetch (if any) starts its own reads.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const meter = async (req: ApiRequest, res: ApiResponse): Promise<void> => {
    const apiKey = requestApiKey(req);
    let scope: RateScope = 'ip';
    let scopeKey = '';
    let limit = options.publicLimit;
    let decision: LimitDecision | undefined;
    if (apiKey === null) {
      scopeKey = `ip:${req.ip ?? 'unknown'}`;
    } else {
      const lookup = options.keys.resolveMetered?.(apiKey, RATE_WINDOW_MS) ?? options.keys.resolve(apiKey);
      const known = options.keys.known?.(apiKey);
      if (known) options.prefetch?.(req, res, known);
      const found = await lookup;
      if (found === null) throw badApiKey();
      if ('revoked' in found) throw revokedKey();
      scope = 'key';
      scopeKey = `key:${found.keyId}`;
      limit = found.requestsPerMinute;
      res.locals.apiKeyId = found.keyId;
      res.locals.apiKey = found;
      if (found.window) decision = windowDecision(found.window.calls, limit, found.window.resetAt);
    }
    res.locals.rateScope = scope;
    res.locals.rateLimit = limit;
    decision ??= await options.limiter.consume(scopeKey, limit);
    setHeaders(res, decision, scope);
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil((decision.resetAt - Date.now()) / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      throw new AppError('rate_limited', `over the budget of ${limit} requests per minute; retry in ${retryAfter} s`, {
        limit,
        retry_after: retryAfter,
      });
    }
  };
  return (req, res, next) => {
    meter(req, res).then(() => next(), next);
  };
}
