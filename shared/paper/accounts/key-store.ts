/** API keys in Redis: the digest index, each key's record, its usage counters and per-day counts. */
import type { RedisClient } from '../../core/redis-client.js';
import { revokedKeyNotice } from '../../push/socket-notices.js';
import { keys } from '../../redis/keys.js';
import { MAIN_BOOK } from './account-rules.js';
import { PROFILE_FIELDS } from './account-store.js';
import { accountScripts } from './lua/account-scripts.js';
import { DAY_MS, utcDay } from './plan-terms.js';

/** A key as listed: never the key itself nor its digest. */
export interface KeySummary {
  id: string;
  name: string;
  /** The book it trades: 'main', or the named book it is bound to. */
  book: string;
  /** True when the key was created bound to a named book. */
  bound: boolean;
  created: number;
  /** When it was revoked (epoch ms); null while active. */
  revokedAt: number | null;
  /** Successful calls made with it, ever. */
  calls: number;
  /** Its last successful call (epoch ms); null before the first. */
  lastCallAt: number | null;
}

export interface KeyRef {
  accountId: string;
  keyId: string;
}

/** A key ref this process holds in memory, with the key's book once a lookup has read it (it never changes). */
export interface CachedKeyRef extends KeyRef {
  book?: string;
}

export interface DayCount {
  day: string;
  calls: number;
}

/** Calls of one key on one UTC day, to be added to its counters. */
export interface UsageTally {
  accountId: string;
  keyId: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  calls: number;
  /** Time of the latest of these calls, ms. */
  last: number;
}

export interface NewKey {
  keyId: string;
  name: string;
  /** null: the main account. */
  book: string | null;
  created: number;
  maxKeys: number;
  maxBooks: number;
  /** The key's HMAC secret sealed under the server's key (SecretBox), for the exchange dialects; absent: none. */
  sealedSecret?: string;
}

export type CreateOutcome = 'created' | 'id_taken' | 'max_keys' | 'max_books';

/** What key-gate.lua read and counted for one keyed call. */
export interface KeyGate {
  key: KeySummary;
  /** The account's profile fields (PROFILE_FIELDS; accountFromProfile reads them). */
  profile: (string | null)[];
  /** The key's calls in its current rate window, this one included; -1 for a revoked key (not counted). */
  calls: number;
  /** Until its window ends, ms. */
  msLeft: number;
  /** The fee venue of the key's opens (its book's own, else the account's), null when none (or the key is revoked). */
  feeVenue: string | null;
  /** Whether the key has a replay (running or finished, until stopped). */
  replay: boolean;
  /** The simulation profile JSON of the key's book (null: none saved); undefined when the gate read another book's. */
  simProfile: string | null | undefined;
}

/** How many days of per-day counts are kept (usage_30d). */
export const USAGE_DAYS = 30;
/** A per-day counter outlives the window by a day, so a day is never cut short. */
const DAY_COUNTER_TTL_MS = (USAGE_DAYS + 1) * DAY_MS;
/** Digest -> key ids never change once written, so they are remembered in-process (bounded). */
const INDEX_CACHE_SIZE = 10_000;

function optionalMs(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  const ms = Number(raw);
  return Number.isFinite(ms) ? ms : null;
}

export function parseKeyRecord(record: Record<string, string>): KeySummary | null {
  if (record.id === undefined) return null;
  const book = record.book ?? '';
  return {
    id: record.id,
    name: record.name ?? '',
    book: book === '' ? MAIN_BOOK : book,
    bound: book !== '',
    created: Number(record.created ?? 0),
    revokedAt: optionalMs(record.revoked),
    calls: Number(record.calls ?? 0),
    lastCallAt: optionalMs(record.last),
  };
}

export class KeyStore {
  private readonly indexCache = new Map<string, CachedKeyRef>();

  constructor(private readonly redis: RedisClient) {}

  /** Adds a key within the plan's limits, then indexes its digest. */
  async create(accountId: string, key: NewKey, digest: string): Promise<CreateOutcome> {
    const outcome = await accountScripts.runInteger(this.redis, 'key-create', {
      keys: [
        keys.accountKeys(accountId),
        keys.accountActiveKeys(accountId),
        keys.accountBooks(accountId),
        keys.accountKey(accountId, key.keyId),
      ],
      args: [key.keyId, key.name, key.book ?? '', key.created, key.maxKeys, key.maxBooks, key.sealedSecret ?? ''],
    });
    if (outcome === 0) return 'id_taken';
    if (outcome === -1) return 'max_keys';
    if (outcome === -2) return 'max_books';
    // The index lives outside the account's slot, so it is its own write; a crash before it leaves
    // a key that can never authenticate (its plaintext was never shown), which revoke can tidy.
    await this.redis.hset(keys.apiKeyByDigest(digest), { accountId, keyId: key.keyId });
    return 'created';
  }

  /** The ref of a digest this process has looked up before and found (no round trip). */
  cachedRef(digest: string): CachedKeyRef | undefined {
    return this.indexCache.get(digest);
  }

  /** Notes the book of a cached key (a key is bound to its book when it is created, for good). */
  rememberBook(digest: string, book: string): void {
    const cached = this.indexCache.get(digest);
    if (cached) cached.book = book;
  }

  /** The account and key id of a key digest, or null. */
  async findByDigest(digest: string): Promise<KeyRef | null> {
    const cached = this.indexCache.get(digest);
    if (cached) return cached;
    const [accountId, keyId] = await this.redis.hmget(keys.apiKeyByDigest(digest), 'accountId', 'keyId');
    if (accountId === null || keyId === null) return null;
    const ref: CachedKeyRef = { accountId, keyId };
    if (this.indexCache.size >= INDEX_CACHE_SIZE) {
      const oldest = this.indexCache.keys().next();
      if (!oldest.done) this.indexCache.delete(oldest.value);
    }
    this.indexCache.set(digest, ref);
    return ref;
  }

  /**
   * A keyed call's reads and its rate count in one script (key-gate.lua): the key, its account's
   * profile and fee venue, whether the key runs a replay, its book's simulation profile (for the
   * book `ref` remembers, main until a lookup has read the key), and the call counted in the key's
   * window of `windowMs`. null: no such key or account.
   */
  async gate(ref: CachedKeyRef, windowMs: number): Promise<KeyGate | null> {
    const { accountId, keyId } = ref;
    const book = ref.book ?? MAIN_BOOK;
    const reply = await accountScripts.run(this.redis, 'key-gate', {
      keys: [
        keys.accountKey(accountId, keyId),
        keys.accountProfile(accountId),
        keys.accountKeyRate(accountId, keyId),
        keys.paperSettings(accountId),
        keys.replayState(accountId, keyId),
        keys.bookSim(accountId, book),
      ],
      args: [windowMs, book, ...PROFILE_FIELDS],
    });
    if (!Array.isArray(reply) || reply.length === 0) return null;
    const [flat, profile, calls, msLeft, feeVenue, replay, simRead, sim] = reply as [
      string[],
      (string | null)[],
      number,
      number,
      string | null | undefined,
      number | undefined,
      number | undefined,
      string | null | undefined,
    ];
    const record: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) record[flat[i]] = flat[i + 1];
    const key = parseKeyRecord(record);
    return (
      key && {
        key,
        profile,
        calls,
        msLeft,
        feeVenue: feeVenue ?? null,
        replay: replay === 1,
        simProfile: simRead === 1 ? (sim ?? null) : undefined,
      }
    );
  }

  async get(accountId: string, keyId: string): Promise<KeySummary | null> {
    return parseKeyRecord(await this.redis.hgetall(keys.accountKey(accountId, keyId)));
  }

  /** The key's sealed HMAC secret (never in a listing: KeySummary leaves it out), null when it has none. */
  async sealedSecret(accountId: string, keyId: string): Promise<string | null> {
    return this.redis.hget(keys.accountKey(accountId, keyId), 'hmac');
  }

  /** Every key of the account, revoked ones included, oldest first. */
  async list(accountId: string): Promise<KeySummary[]> {
    const ids = await this.redis.zrange(keys.accountKeys(accountId), '0', '-1');
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(keys.accountKey(accountId, id));
    const replies = (await pipeline.exec()) ?? [];
    const out: KeySummary[] = [];
    for (const [error, record] of replies) {
      if (error) throw error;
      const parsed = parseKeyRecord(record as Record<string, string>);
      if (parsed) out.push(parsed);
    }
    return out;
  }

  async countAll(accountId: string): Promise<number> {
    return this.redis.zcard(keys.accountKeys(accountId));
  }

  async countActive(accountId: string): Promise<number> {
    return this.redis.scard(keys.accountActiveKeys(accountId));
  }

  /** false: no such key. */
  async rename(accountId: string, keyId: string, name: string): Promise<boolean> {
    return (await accountScripts.runInteger(this.redis, 'key-rename', { keys: [keys.accountKey(accountId, keyId)], args: [name] })) === 1;
  }

  /** Revokes the key and, in the same script, tells the pods to close its WebSocket streams. */
  async revoke(accountId: string, keyId: string, now: number): Promise<'revoked' | 'already_revoked' | 'missing'> {
    const outcome = await accountScripts.runInteger(this.redis, 'key-revoke', {
      keys: [keys.accountKey(accountId, keyId), keys.accountActiveKeys(accountId)],
      args: [keyId, now, keys.accountEvents(accountId), revokedKeyNotice(keyId)],
    });
    return outcome === 1 ? 'revoked' : outcome === 0 ? 'already_revoked' : 'missing';
  }

  /**
   * Adds counted calls (total, last call time, the day's count) for any number of keys, one script
   * call each (key-usage.lua), in one round trip.
   */
  async recordCalls(tallies: readonly UsageTally[]): Promise<void> {
    await accountScripts.runMany(
      this.redis,
      'key-usage',
      tallies.map((t) => ({
        keys: [keys.accountKey(t.accountId, t.keyId), keys.accountKeyDay(t.accountId, t.keyId, t.day)],
        args: [t.calls, t.last, DAY_COUNTER_TTL_MS],
      })),
      // a small batch every 100 ms from every API pod (usage-batcher.ts)
      'one-write',
    );
  }

  /** The key's calls per UTC day over the last `days` days, oldest first, today last (zero days included). */
  async dailyCalls(accountId: string, keyId: string, now: number, days = USAGE_DAYS): Promise<DayCount[]> {
    const dayNames = Array.from({ length: days }, (_, i) => utcDay(now - (days - 1 - i) * DAY_MS));
    const counts = await this.redis.mget(dayNames.map((day) => keys.accountKeyDay(accountId, keyId, day)));
    return dayNames.map((day, i) => ({ day, calls: Number(counts[i] ?? 0) }));
  }
}
