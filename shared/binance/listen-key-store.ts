/**
 * The Binance dialect's listenKeys: one per API key, a random opaque 64-character string valid for 60 minutes, which
 * POST answers again (and extends) while valid, PUT extends and DELETE closes. It names the key's account and book to
 * the user-data stream, which reads nothing else with it: it is a bearer of that one book's events, short-lived, as on
 * Binance. Two strings, both expiring with it: the key's current listenKey (in the account's slot) and the listenKey's
 * record (a global index, as an API key's digest). A close is told to the sockets streaming it by a notice on the
 * account's channel (shared/push/socket-notices.ts), which every pod holding one hears.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RedisClient } from '../core/redis-client.js';
import type { KeyContext } from '../paper/key-context.js';
import type { SocketNotice } from '../push/socket-notices.js';
import { keys } from '../redis/keys.js';

/** How long a listenKey lives past its creation or last keepalive: Binance's 60 minutes. */
export const LISTEN_KEY_TTL_MS = 3_600_000;
/** What a socket of a closed listenKey is cut with (the notice's reason). */
export const LISTEN_KEY_CLOSED = 'listen_key_expired';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new listenKey: 64 characters of [A-Za-z0-9] from the system's CSPRNG (62 letters: the bias of % 62 is negligible). */
export function randomListenKey(): string {
  return [...randomBytes(64)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/** The shape a listenKey has; anything else is not looked up. */
export const isListenKeyShaped = (value: string): boolean => /^[A-Za-z0-9]{64}$/.test(value);

/** The socket id under which a listenKey's sockets are named in a close notice (a digest: the key stays off the channel). */
export function listenKeySocketId(listenKey: string): string {
  return `listen-key:${createHash('sha256').update(listenKey).digest('hex').slice(0, 32)}`;
}

/** The context a listenKey was made with, and how long it has left, ms. */
export interface ListenKeyRecord {
  ctx: KeyContext;
  ttlMs: number;
}

/** What of a key context is kept with its listenKey: what the request resolved, not what it read for that one request. */
function keptContext(ctx: KeyContext): KeyContext {
  const { keyId, keyName, accountId, email, book, bookBound, plan } = ctx;
  return { keyId, keyName, accountId, email, book, bookBound, plan };
}

export class ListenKeyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly newKey: () => string = randomListenKey,
  ) {}

  /** POST: the key's valid listenKey, extended, or a new one. */
  async open(ctx: KeyContext): Promise<string> {
    const own = keys.binanceListenKeyOf(ctx.accountId, ctx.keyId);
    // a few tries: a listenKey that expires between the reads below is replaced by a new one
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const fresh = this.newKey();
      if ((await this.redis.set(own, fresh, 'PX', LISTEN_KEY_TTL_MS, 'NX')) === 'OK') {
        await this.redis.set(keys.binanceListenKey(fresh), JSON.stringify({ ctx: keptContext(ctx) }), 'PX', LISTEN_KEY_TTL_MS);
        return fresh;
      }
      const current = await this.redis.get(own);
      if (current !== null && (await this.extend(ctx, current))) return current;
      // its record is gone (or not written yet by a racing POST): the key's pointer goes, the next try makes one
      if (current !== null) await this.redis.del(own);
    }
    throw new Error('listenKey: no key could be made');
  }

  /** PUT: extends the key's listenKey by 60 minutes and answers it; null when it has none. */
  async keepAlive(ctx: KeyContext): Promise<string | null> {
    const current = await this.redis.get(keys.binanceListenKeyOf(ctx.accountId, ctx.keyId));
    return current !== null && (await this.extend(ctx, current)) ? current : null;
  }

  /** DELETE: closes the key's listenKey and tells its sockets; false when it has none. */
  async close(ctx: KeyContext): Promise<boolean> {
    const own = keys.binanceListenKeyOf(ctx.accountId, ctx.keyId);
    const current = await this.redis.get(own);
    if (current === null) return false;
    await Promise.all([this.redis.del(own), this.redis.del(keys.binanceListenKey(current))]);
    const notice: SocketNotice = { cut: { sockets: [listenKeySocketId(current)] }, code: 1000, reason: LISTEN_KEY_CLOSED };
    await this.redis.publish(keys.accountEvents(ctx.accountId), JSON.stringify(notice));
    return true;
  }

  /** The listenKey's context and time left, or null when it does not exist (never made, expired, closed). */
  async find(listenKey: string): Promise<ListenKeyRecord | null> {
    if (!isListenKeyShaped(listenKey)) return null;
    const key = keys.binanceListenKey(listenKey);
    const [raw, ttlMs] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    if (raw === null || ttlMs <= 0) return null;
    return { ctx: (JSON.parse(raw) as { ctx: KeyContext }).ctx, ttlMs };
  }

  /** How long the listenKey has left, ms; 0 when it is gone. */
  async timeLeft(listenKey: string): Promise<number> {
    return Math.max(0, await this.redis.pttl(keys.binanceListenKey(listenKey)));
  }

  private async extend(ctx: KeyContext, listenKey: string): Promise<boolean> {
    const [record] = await Promise.all([
      this.redis.pexpire(keys.binanceListenKey(listenKey), LISTEN_KEY_TTL_MS),
      this.redis.pexpire(keys.binanceListenKeyOf(ctx.accountId, ctx.keyId), LISTEN_KEY_TTL_MS),
    ]);
    return record === 1;
  }
}
