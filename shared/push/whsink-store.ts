/**
 * whsink: an address anyone can point a webhook at while trying webhooks out. It keeps the last 20
 * deliveries for 15 minutes; the token in its path is the secret, so only its digest names the key.
 * What it may hold is bounded whatever callers send: each delivery at most WHSINK_MAX_RECORD bytes
 * (else 413), each address its own budget of deliveries a minute (else 429 whsink_rate_limited),
 * at most a configured number of addresses at once (else 429 whsink_full), and a budget of new addresses per sending
 * client every 15 minutes (else 429 whsink_client_limit), so one client cannot take every address.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { keys } from '../redis/keys.js';
import { RATE_WINDOW_MS } from '../rate-limit/coalescing-limiter.js';
import { pushScripts } from './lua/push-scripts.js';

export const WHSINK_KEEP = 20;
export const WHSINK_TTL_MS = 15 * 60_000;
/** Characters of a body kept; the rest is cut (and said so). */
export const WHSINK_MAX_BODY = 16 * 1024;
/** Bytes of one stored delivery (body, kept headers, escaping): with WHSINK_KEEP, what one address can hold. */
export const WHSINK_MAX_RECORD = 24 * 1024;
/** What a token looks like: long enough to be a secret, plain enough for a path. */
export const WHSINK_TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export interface SinkDelivery {
  received_ts: number;
  /** content-type, user-agent and the X-PD-* headers, lowercased. */
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
}

export interface WhsinkLimits {
  /** Deliveries per minute per address. */
  perMinute: number;
  /** Addresses holding deliveries at once. */
  maxSinks: number;
  /** New addresses one client may make per WHSINK_TTL_MS. */
  perClient: number;
}

/** A refusal of a whsink delivery, with when to retry (seconds; the error handler sends it as Retry-After). */
function refused(code: 'whsink_rate_limited' | 'whsink_full' | 'whsink_client_limit', message: string, retryAfter: number): AppError {
  return new AppError(code, `${message}; retry in ${retryAfter} s`, { retry_after: retryAfter });
}

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

export class WhsinkStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly clock: Clock,
    private readonly limits: WhsinkLimits,
  ) {}

  /**
   * Keeps a delivery sent by `client` (its address); throws 413 payload_too_large, or 429 whsink_rate_limited,
   * whsink_full or whsink_client_limit for the address's spent budget, a full cap or the client's spent budget of new addresses.
   */
  async record(token: string, client: string, delivery: SinkDelivery): Promise<void> {
    const json = JSON.stringify(delivery);
    if (Buffer.byteLength(json) > WHSINK_MAX_RECORD) {
      throw new AppError('payload_too_large', `a delivery is kept up to ${WHSINK_MAX_RECORD} bytes with its headers; this one takes more`, {
        max_bytes: WHSINK_MAX_RECORD,
      });
    }
    const id = digest(token);
    const [status, value] = await pushScripts.runStatus(this.redis, 'whsink-record', {
      keys: [keys.whsink(id), keys.whsinkRate(id), keys.whsinkLive(), keys.whsinkClient(digest(client))],
      args: [
        this.clock.now(),
        WHSINK_TTL_MS,
        WHSINK_KEEP,
        this.limits.perMinute,
        RATE_WINDOW_MS,
        this.limits.maxSinks,
        id,
        json,
        this.limits.perClient,
        WHSINK_TTL_MS,
      ],
    });
    if (status === 0)
      throw refused('whsink_rate_limited', `this address takes ${this.limits.perMinute} deliveries a minute`, seconds(Number(value)));
    if (status === -1)
      throw refused('whsink_full', `${this.limits.maxSinks} whsink addresses hold deliveries already`, seconds(Number(value)));
    if (status === -2) {
      const message = `one client makes up to ${this.limits.perClient} new whsink addresses every 15 minutes; reuse one`;
      throw refused('whsink_client_limit', message, seconds(Number(value)));
    }
  }

  /** The last deliveries, newest first, and how long until the address forgets them (ms, 0 when empty). */
  async list(token: string): Promise<{ deliveries: SinkDelivery[]; expiresInMs: number }> {
    const key = keys.whsink(digest(token));
    const [rows, ttl] = await Promise.all([this.redis.lrange(key, 0, WHSINK_KEEP - 1), this.redis.pttl(key)]);
    return { deliveries: rows.map((row) => JSON.parse(row) as SinkDelivery), expiresInMs: Math.max(0, ttl) };
  }
}
