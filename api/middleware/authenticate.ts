/**
 * Key authentication: the one place that reads a request's API key and turns it into a KeyContext, for keyed
 * HTTP routes and stream upgrades alike (the rate limiter reads the key with requestApiKey too, before the route).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import { planHeaders } from '../../shared/paper/accounts/plan-terms.js';
import type { ApiKeyResolver, ResolvedKeyLocals } from '../../shared/paper/api-key-resolver.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { PlanId } from '../../shared/paper/plans.js';

/** What reading a request's key needs of it: its headers and its parsed query (Express's req.query). */
export interface KeyedRequest extends Pick<IncomingMessage, 'headers'> {
  query: Record<string, unknown>;
}

/**
 * What authenticating a request needs of its response: plan headers, the status it ends with, the rate limiter's findings,
 * the request id (request-logger.ts).
 */
export interface KeyedResponse extends Pick<ServerResponse, 'setHeader' | 'once' | 'statusCode'> {
  locals: ResolvedKeyLocals & { requestId?: string };
}

/** Turns a request's API key into its context, or throws 401 missing_api_key / bad_api_key / revoked_key. */
export type Authenticate = (req: KeyedRequest, res: KeyedResponse) => Promise<KeyContext>;

/**
 * The API key a request carries: the X-API-Key header, else the api_key query parameter; null when
 * neither (an empty value counts as none). A repeated parameter comes back joined, so it fails
 * lookup as a bad key instead of picking one of them.
 */
export function requestApiKey(req: KeyedRequest): string | null {
  const header = req.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header.join(',') : header;
  if (fromHeader !== undefined && fromHeader !== '') return fromHeader;
  const query: unknown = req.query.api_key;
  if (typeof query === 'string') return query === '' ? null : query;
  if (Array.isArray(query)) return query.map(String).join(',');
  return query === undefined || query === null ? null : String(query);
}

export const missingApiKey = (): AppError =>
  new AppError('missing_api_key', 'an API key is required: send it in the X-API-Key header (or the api_key query parameter)');
export const badApiKey = (): AppError => new AppError('bad_api_key', 'the API key is not valid');
export const revokedKey = (): AppError => new AppError('revoked_key', 'this API key was revoked');

/** The context of an API key, or 401 missing_api_key / bad_api_key / revoked_key: keyed routes and stream upgrades alike. */
export async function resolveApiKey(resolver: ApiKeyResolver, apiKey: string | null): Promise<KeyContext> {
  if (apiKey === null) throw missingApiKey();
  const found = await resolver.resolve(apiKey);
  if (found === null) throw badApiKey();
  if ('revoked' in found) throw revokedKey();
  if (!found.context) throw new Error('the key resolver answered without a key context');
  return found.context;
}

/**
 * The context with the request's id (KeyContext.requestId), which the changes it makes carry to the outbox and the
 * webhook logs. A copy: the resolver's context may be the one it hands every request of this key.
 */
export function withRequestId(context: KeyContext, res: Pick<KeyedResponse, 'locals'>): KeyContext {
  const { requestId } = res.locals;
  return requestId === undefined ? context : { ...context, requestId };
}

/** Counts a key's successful calls (UsageBatcher). */
export interface UsageRecorder {
  recordCall(accountId: string, keyId: string, now: number): void;
}

export interface AuthenticateDeps {
  resolver: ApiKeyResolver;
  usage: UsageRecorder;
  clock: Clock;
  /** Hears each authenticated request's plan (the keyed-requests metric); unset when metrics are off. */
  onKeyed?: (plan: PlanId) => void;
}

/**
 * The Authenticate of keyed routes. It takes the key the rate limiter already resolved for this
 * request (res.locals.apiKey) and resolves it only when that is missing. It sets X-PD-Plan (and,
 * in a paid plan's last 14 days, X-PD-Plan-Expires and X-PD-Plan-Days-Left), and counts the call
 * toward the key's usage once the response has gone out with a status below 400: a refused call
 * (401, 429, a 4xx of the route) is never counted. The context it answers carries the request's id (KeyContext.requestId).
 */
export function createAuthenticate(deps: AuthenticateDeps): Authenticate {
  return async (req, res) => {
    let context = res.locals.apiKey?.context;
    context ??= await resolveApiKey(deps.resolver, requestApiKey(req));
    for (const [name, value] of Object.entries(planHeaders(context.plan))) res.setHeader(name, value);
    deps.onKeyed?.(context.plan.limits.id);
    const { accountId, keyId } = context;
    res.once('finish', () => {
      if (res.statusCode >= 400) return;
      deps.usage.recordCall(accountId, keyId, deps.clock.now());
    });
    return withRequestId(context, res);
  };
}
