/**
 * A stream upgrade's admission, decided before any socket exists: its key (or a site page's session) is looked up with
 * the rules of keyed HTTP routes; a refused key is charged to the address, an accepted one to its key's budget; a refusal
 * is answered in HTTP, in the v2 envelope, and logged.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import type { Logger } from '../../shared/core/logger.js';
import { isRedisUnreachable } from '../../shared/core/redis-unreachable.js';
import type { ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { resolveApiKey } from '../middleware/authenticate.js';
import { redisUnavailable } from '../middleware/redis-gate.js';
import type { KeyCheck } from './stream-client.js';

export const KEY_HINT = 'connect with ?api_key=<API_KEY> (or key=, token=) of an active key';
/** What an upgrade refused for its key is told, by the error code. */
const REFUSED_KEY_MESSAGES: Record<Extract<KeyCheck, { code: string }>['code'], string> = {
  missing_api_key: 'an API key is required: connect with ?api_key=<API_KEY> (or key=, token=)',
  bad_api_key: `the API key is not valid: ${KEY_HINT}`,
  revoked_key: `this API key was revoked: ${KEY_HINT}`,
  login_required: 'the site session has ended: sign in again',
  cross_site: "a site session's stream must be opened from the site's own pages",
};

export interface UpgradeAuthDeps {
  apiKeys: ApiKeyResolver;
  /** Charges an upgrade's refused key to its client address (the HTTP rate limit's budget): the 429 past it, else null. */
  chargeRefusedKey(req: IncomingMessage): Promise<AppError | null>;
  /** Charges an upgrade with an active key to the key's per-minute budget (its HTTP calls'): the 429 past it, else null. */
  chargeKeyedUpgrade(apiKey: string): Promise<AppError | null>;
  /**
   * A signed-in site page's stream (no key, the session cookie): the check of its session, run before the upgrade and
   * again whenever a key would be looked up again; null when the request carries no session cookie.
   */
  siteSession?: (req: IncomingMessage, url: URL) => (() => Promise<KeyCheck>) | null;
  logger: Logger;
  clock: Clock;
}

/** An accepted upgrade: the context it was accepted with, and its check, run again whenever notices may have been missed. */
export interface Admitted {
  ctx: KeyContext;
  check: () => Promise<KeyCheck>;
}

/** The key of a stream request: api_key, or its aliases key and token. */
function streamKey(url: URL): string | null {
  for (const name of ['api_key', 'key', 'token']) {
    const value = url.searchParams.get(name);
    if (value) return value;
  }
  return null;
}

/** Answers an upgrade with an empty HTTP status instead of a socket, and closes the connection. */
export function endUpgrade(socket: Duplex, status: 404 | 503): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Answers an upgrade with an HTTP error in the v2 envelope instead of a socket, and closes the connection. */
function refuseUpgrade(socket: Duplex, error: AppError, now: number): void {
  const body = JSON.stringify({ ok: false, error: { code: error.code, message: error.message, ...error.details }, ts: now });
  const retry = typeof error.details.retry_after === 'number' ? `Retry-After: ${error.details.retry_after}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\nConnection: close\r\nContent-Type: application/json; ` +
      `charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${retry}\r\n${body}`,
  );
}

const isKeyRefusal = (code: string): code is keyof typeof REFUSED_KEY_MESSAGES => code in REFUSED_KEY_MESSAGES;

/** The key's context, or the code it is refused with (the same rules as keyed HTTP routes). */
async function checkKey(apiKeys: ApiKeyResolver, key: string | null): Promise<KeyCheck> {
  try {
    return { context: await resolveApiKey(apiKeys, key) };
  } catch (error) {
    if (error instanceof AppError && isKeyRefusal(error.code)) return { code: error.code };
    throw error;
  }
}

export class UpgradeAuth {
  constructor(private readonly deps: UpgradeAuthDeps) {}

  /** The upgrade's key (or session) looked up: accepted with its context, or refused with an HTTP answer (then null). */
  async admit(req: IncomingMessage, socket: Duplex, url: URL): Promise<Admitted | null> {
    const { apiKeys, siteSession, logger, clock } = this.deps;
    const key = streamKey(url);
    // without a key, a site page's session cookie; else the key check (which refuses a missing key)
    const check = (key === null ? siteSession?.(req, url) : null) ?? (() => checkKey(apiKeys, key));
    // between the upgrade event and handleUpgrade nothing listens for the connection's errors:
    // a reset while the key is looked up would be unhandled
    const dropped = (): void => void socket.destroy();
    socket.on('error', dropped);
    try {
      const refusal = await this.admission(req, key, check);
      if (!(refusal instanceof AppError)) return { ctx: refusal, check };
      refuseUpgrade(socket, refusal, clock.now());
      // one line per refused upgrade, as per closed stream (the key in its URL is redacted as it is written)
      logger.info({ url: req.url, status: refusal.status, code: refusal.code }, 'stream refused');
    } catch (error) {
      if (!isRedisUnreachable(error)) logger.error({ err: error }, 'stream: key lookup failed');
      refuseUpgrade(socket, isRedisUnreachable(error) ? redisUnavailable() : new AppError('internal', 'internal error'), clock.now());
    } finally {
      socket.off('error', dropped);
    }
    return null;
  }

  /** Why an upgrade is refused (an HTTP error), or the context it is accepted with. */
  private async admission(req: IncomingMessage, key: string | null, check: () => Promise<KeyCheck>): Promise<KeyContext | AppError> {
    const checked = await check();
    if ('context' in checked) {
      // an accepted key's upgrade counts as one of its calls, on its plan's per-minute budget
      const overBudget = key === null ? null : await this.deps.chargeKeyedUpgrade(key);
      return overBudget ?? checked.context;
    }
    // a key sent and refused costs the address, as over HTTP; no key at all (or a session's refusal) is not a guess
    const guessed = checked.code === 'bad_api_key' || checked.code === 'revoked_key';
    const overBudget = guessed ? await this.deps.chargeRefusedKey(req) : null;
    return overBudget ?? new AppError(checked.code, REFUSED_KEY_MESSAGES[checked.code]);
  }
}
