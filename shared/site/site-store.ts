/**
 * The site's own records (users, sessions, sign-in links and the development outbox) as plain hashes, sets and a list
 * on the process's connection, named in shared/redis/keys.ts. Accounts, keys and money stay on their stores and
 * scripts. Every command names one key, so the records work on Redis Cluster too. The layout is the one redis-om wrote
 * (a hash per record, numbers as decimal strings, a save replacing the whole hash), so records stored before carry on.
 */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';

export interface UserRecord {
  email: string;
  created: number;
  last_sign_in: number;
}

export interface SessionRecord {
  account: string;
  email: string;
  created: number;
}

export interface LinkRecord {
  email: string;
  created: number;
  expires: number;
  /** When the link was opened (epoch ms), claimed with HSETNX: one opening wins. */
  used?: number;
}

/** One kind of record: a hash per id, its number fields parsed on read; a missing record reads as no fields. */
export class HashRecords<R extends object> {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (id: string) => string,
    private readonly numberFields: ReadonlySet<string>,
  ) {}

  /** Replaces the record (absent fields are dropped, as the hash is rewritten). */
  async save(id: string, record: R): Promise<void> {
    const key = this.keyOf(id);
    const fields = Object.entries(record).filter(([, value]) => value !== undefined && value !== null);
    const replies = await this.redis
      .multi()
      .unlink(key)
      .hset(key, Object.fromEntries(fields.map(([field, value]) => [field, String(value)])))
      .exec();
    const failed = replies?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
  }

  async fetch(id: string): Promise<Partial<R>> {
    const hash = await this.redis.hgetall(this.keyOf(id));
    const record: Record<string, string | number> = {};
    for (const [field, text] of Object.entries(hash)) {
      if (!this.numberFields.has(field)) record[field] = text;
      else if (Number.isNaN(Number(text))) throw new Error(`${this.keyOf(id)}: field ${field} is not a number`);
      else record[field] = Number.parseFloat(text);
    }
    return record as Partial<R>;
  }

  async expire(id: string, seconds: number): Promise<void> {
    await this.redis.expire(this.keyOf(id), seconds);
  }

  async remove(id: string): Promise<void> {
    await this.redis.unlink(this.keyOf(id));
  }
}

/** The site's records on one connection: built once in the composition root (shared/domain.ts). */
export class SiteStore {
  readonly users: HashRecords<UserRecord>;
  readonly sessions: HashRecords<SessionRecord>;
  readonly links: HashRecords<LinkRecord>;

  constructor(private readonly redis: RedisClient) {
    this.users = new HashRecords(redis, keys.siteUser, new Set(['created', 'last_sign_in']));
    this.sessions = new HashRecords(redis, keys.siteSession, new Set(['created']));
    this.links = new HashRecords(redis, keys.siteLink, new Set(['created', 'expires', 'used']));
  }

  /** Claims a link once: true to the one opening that set `used` (HSETNX). */
  async claimLink(id: string, now: number): Promise<boolean> {
    return (await this.redis.hsetnx(keys.siteLink(id), 'used', String(now))) === 1;
  }

  /** Adds to an index set (an account's sessions, an address's links) and sets how long the set lives. */
  async index(set: string, id: string, ttlSeconds: number): Promise<void> {
    await Promise.all([this.redis.sadd(set, id), this.redis.expire(set, ttlSeconds)]);
  }

  members(set: string): Promise<string[]> {
    return this.redis.smembers(set);
  }

  async unindex(set: string, ids: string[]): Promise<void> {
    await this.redis.srem(set, ...ids);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.redis.publish(channel, message);
  }

  /** Adds a mail to the development outbox, keeping the newest `keep`. */
  async pushOutbox(line: string, keep: number): Promise<void> {
    await this.redis
      .multi()
      .lpush(keys.siteOutbox(), line)
      .ltrim(keys.siteOutbox(), 0, keep - 1)
      .exec();
  }

  /** The development outbox, newest first. */
  outbox(): Promise<string[]> {
    return this.redis.lrange(keys.siteOutbox(), 0, -1);
  }
}
