/**
 * The Binance dialect's request reading and SIGNED check: the key from X-MBX-APIKEY, the parameters from the raw
 * query string and form body, and for a signed route the timestamp, recvWindow and HMAC signature under the key's
 * secret. The key's plan budget was charged by the rate limiter before (it reads X-MBX-APIKEY too).
 */
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import { checkSignedRequest, requestParams, type SignedParts } from '../../shared/binance/signed-request.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { missingApiKey, type Authenticate } from '../middleware/authenticate.js';
import type { ApiRequest, ApiResponse } from '../routing/http-types.js';

/** The key a Binance client sends: X-MBX-APIKEY (an empty one counts as none). */
export function binanceApiKey(req: Pick<ApiRequest, 'headers'>): string | null {
  const header = req.headers['x-mbx-apikey'];
  const value = Array.isArray(header) ? header.join(',') : header;
  return value === undefined || value === '' ? null : value;
}

/** The raw query string and form body of a request (express.text left the body as sent). */
export function signedParts(req: ApiRequest): SignedParts {
  const mark = req.originalUrl.indexOf('?');
  return { query: mark < 0 ? '' : req.originalUrl.slice(mark + 1), body: typeof req.body === 'string' ? req.body : '' };
}

export interface SignedAuthDeps {
  authenticate: Authenticate;
  /** The key's HMAC secret in clear (AccountService.hmacSecret), null when it has none. */
  secretOf(accountId: string, keyId: string): Promise<string | null>;
  clock: Clock;
}

/** The key's context of a USER_STREAM request (the API key alone, no signature), or -2014/-2015. */
export async function authenticateKey(deps: Pick<SignedAuthDeps, 'authenticate'>, req: ApiRequest, res: ApiResponse): Promise<KeyContext> {
  if (binanceApiKey(req) === null) throw missingApiKey();
  return deps.authenticate(req, res);
}

/** The key's context of a signed request, or the refusal Binance answers (-2014, -2015, -1102, -1021, -1022). */
export async function authenticateSigned(deps: SignedAuthDeps, req: ApiRequest, res: ApiResponse): Promise<KeyContext> {
  const auth = await authenticateKey(deps, req, res);
  const secret = await deps.secretOf(auth.accountId, auth.keyId);
  if (secret === null) throw new AppError('secret_required', 'this API key has no HMAC secret: create one with keys create --secret');
  const parts = signedParts(req);
  const refusal = checkSignedRequest(parts, requestParams(parts), secret, deps.clock.now());
  if (refusal === null) return auth;
  const messages = {
    missing_param: `Mandatory parameter '${refusal.param}' was not sent, was empty/null, or malformed.`,
    invalid_param: `Data sent for parameter '${refusal.param}' is not valid.`,
    stale_timestamp: 'Timestamp for this request is outside of the recvWindow.',
    bad_signature: 'Signature for this request is not valid.',
  };
  throw new AppError(refusal.code, messages[refusal.code], { param: refusal.param });
}
