/**
 * Site sessions: a random cookie value whose SHA-256 names a redis-om record, alive 30 days after its last use (each
 * check pushes the expiry forward). An account's sessions are listed in a set of our own, so signing out everywhere
 * finds them without a search module.
 */
import type { Clock } from '../core/clock.js';
import { endedSessionNotice } from '../push/socket-notices.js';
import { keys } from '../redis/keys.js';
import { siteKeys, type SiteRedis } from './site-records.js';
import { randomSecret, secretDigest } from './sign-in.js';

export const SESSION_TTL_MS = 30 * 24 * 3_600_000;

/**
 * The key id a session's calls and streams act under: not a key (key ids are key_ and 16 characters), so no key's
 * usage or notice names it, and one per session, so a sign-out cuts that session's streams only.
 */
export function sessionKeyId(sessionId: string): string {
  return `site_${sessionId.slice(0, 16)}`;
}
const SESSION_TTL_S = SESSION_TTL_MS / 1000;
const COOKIE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SiteSession {
  /** The record's id (the cookie's digest): safe to log, useless as a cookie. */
  id: string;
  accountId: string;
  email: string;
  created: number;
}

export class SessionService {
  constructor(
    private readonly records: SiteRedis,
    private readonly clock: Clock,
  ) {}

  /** A new session for the account; answers the cookie value (shown to the browser only). */
  async create(owner: { accountId: string; email: string }, now = this.clock.now()): Promise<string> {
    const cookie = randomSecret();
    const id = secretDigest(cookie);
    const { client, sessions } = await this.records.records();
    await sessions.save(id, { account: owner.accountId, email: owner.email, created: now });
    const index = siteKeys.accountSessions(owner.accountId);
    // the index lives as long as the account's newest session
    await Promise.all([sessions.expire(id, SESSION_TTL_S), client.sAdd(index, id), client.expire(index, SESSION_TTL_S)]);
    return cookie;
  }

  /** The live session of a cookie value, its expiry pushed 30 days ahead; null when there is none. */
  async check(cookie: string | undefined): Promise<SiteSession | null> {
    if (cookie === undefined || !COOKIE_SHAPE.test(cookie)) return null;
    const id = secretDigest(cookie);
    const { sessions } = await this.records.records();
    // both ride one round trip (node-redis pipelines the commands of one tick); EXPIRE on a missing key does nothing
    const [session] = await Promise.all([sessions.fetch(id), sessions.expire(id, SESSION_TTL_S)]);
    if (typeof session.account !== 'string' || typeof session.email !== 'string') return null;
    return { id, accountId: session.account, email: session.email, created: Number(session.created ?? 0) };
  }

  /** Ends one session, or every session of its account (`everywhere`); answers how many ended. */
  async end(session: SiteSession, everywhere: boolean): Promise<number> {
    const { client, sessions } = await this.records.records();
    const index = siteKeys.accountSessions(session.accountId);
    const ids = everywhere ? await client.sMembers(index) : [session.id];
    if (!ids.includes(session.id)) ids.push(session.id);
    // one key per command: a session's key and the index may sit in different cluster slots
    await Promise.all(ids.map((id) => sessions.remove(id)));
    await client.sRem(index, ids);
    // the streams opened on these sessions close now, on whichever pod holds them
    const channel = keys.accountEvents(session.accountId);
    await Promise.all(ids.map((id) => client.publish(channel, endedSessionNotice(sessionKeyId(id)))));
    return ids.length;
  }
}
