/**
 * whsink: an address anyone can point a webhook at while trying webhooks out. It keeps the last 20
 * deliveries for 15 minutes; the token in its path is the secret, so only its digest names the key.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { keys } from '../redis/keys.js';

export const WHSINK_KEEP = 20;
export const WHSINK_TTL_MS = 15 * 60_000;
/** Bytes of a body kept; the rest is cut (and said so). */
export const WHSINK_MAX_BODY = 16 * 1024;
/** What a token looks like: long enough to be a secret, plain enough for a path. */
export const WHSINK_TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export interface SinkDelivery {
  received_ts: number;
  /** content-type, user-agent and the X-PD-* headers, lowercased. */
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
}

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

export class WhsinkStore {
  constructor(private readonly redis: Redis) {}

  async record(token: string, delivery: SinkDelivery): Promise<void> {
    const key = keys.whsink(digest(token));
    await this.redis.multi().lpush(key, JSON.stringify(delivery)).ltrim(key, 0, WHSINK_KEEP - 1).pexpire(key, WHSINK_TTL_MS).exec();
  }

  /** The last deliveries, newest first, and how long until the address forgets them (ms, 0 when empty). */
  async list(token: string): Promise<{ deliveries: SinkDelivery[]; expiresInMs: number }> {
    const key = keys.whsink(digest(token));
    const [rows, ttl] = await Promise.all([this.redis.lrange(key, 0, WHSINK_KEEP - 1), this.redis.pttl(key)]);
    return { deliveries: rows.map((row) => JSON.parse(row) as SinkDelivery), expiresInMs: Math.max(0, ttl) };
  }
}
