/**
 * Site sessions: a random cookie value whose SHA-256 names a record (a hash), alive 30 days after its last use (each
 * check pushes the expiry forward) and 90 days after it began at most. An account's sessions are listed in a set of our
 * own, kept as long as the longest session in it can live, so signing out everywhere finds them without a search module.
 */
import type { Clock } from '../core/clock.js';
import { endedSessionNotice } from '../push/socket-notices.js';
import { keys } from '../redis/keys.js';
import type { SiteStore } from './site-store.js';
import { randomSecret, secretDigest } from './sign-in.js';

export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
/** A session ends this long after it began, however often it is used. */
export const SESSION_MAX_AGE_MS = 90 * 24 * 3_600_000;

/**
 * The key id a session's calls and streams act under: not a key (key ids are key_ and 16 characters), so no key's
 * usage or notice names it, and one per session, so a sign-out cuts that session's streams only.
 */
export function sessionKeyId(sessionId: string): string {
  return `site_${sessionId.slice(0, 16)}`;
}
const SESSION_TTL_S = SESSION_TTL_MS / 1000;
const SESSION_MAX_AGE_S = SESSION_MAX_AGE_MS / 1000;
const COOKIE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SiteSession {
  /** The record's id (the cookie's digest): safe to log, useless as a cookie. */
  id: string;
  accountId: string;
  email: string;
  created: number;
  /** How long the session has left (ms): its sliding 30 days, cut at its 90 days. */
  remainingMs: number;
}

/** What is left of a session begun at `created`: 30 days from now, but never past its 90 days; 0 once over. */
export function sessionRemainingMs(created: number, now: number): number {
  return Math.max(0, Math.min(SESSION_TTL_MS, created + SESSION_MAX_AGE_MS - now));
}

export class SessionService {
  constructor(
    private readonly store: SiteStore,
    private readonly clock: Clock,
  ) {}

  /** A new session for the account; answers the cookie value (shown to the browser only). */
  async create(owner: { accountId: string; email: string }, now = this.clock.now()): Promise<string> {
    const cookie = randomSecret();
    const id = secretDigest(cookie);
    const { sessions } = this.store;
    await sessions.save(id, { account: owner.accountId, email: owner.email, created: now });
    const index = keys.siteAccountSessions(owner.accountId);
    // the newest session can live longest (90 days from now): the index lives that long, so it outlives every session in it
    await Promise.all([sessions.expire(id, SESSION_TTL_S), this.store.index(index, id, SESSION_MAX_AGE_S)]);
    return cookie;
  }

  /** The live session of a cookie value, its expiry pushed 30 days ahead (never past its 90 days); null when there is none. */
  async check(cookie: string | undefined): Promise<SiteSession | null> {
    if (cookie === undefined || !COOKIE_SHAPE.test(cookie)) return null;
    const id = secretDigest(cookie);
    const { sessions } = this.store;
    // both go out at once; EXPIRE on a missing key does nothing
    const [session] = await Promise.all([sessions.fetch(id), sessions.expire(id, SESSION_TTL_S)]);
    if (typeof session.account !== 'string' || typeof session.email !== 'string') return null;
    const owner = { id, accountId: session.account, email: session.email };
    const created = Number(session.created ?? 0);
    const remainingMs = sessionRemainingMs(created, this.clock.now());
    if (remainingMs <= 0) {
      await this.endIds(owner.accountId, [id]);
      return null;
    }
    // its last 30 days: the expiry just set would outlive the 90
    if (remainingMs < SESSION_TTL_MS) await sessions.expire(id, Math.ceil(remainingMs / 1000));
    return { ...owner, created, remainingMs };
  }

  /** Ends one session, or every session of its account (`everywhere`); answers how many ended. */
  async end(session: SiteSession, everywhere: boolean): Promise<number> {
    if (!everywhere) return this.endIds(session.accountId, [session.id]);
    const ids = await this.store.members(keys.siteAccountSessions(session.accountId));
    if (!ids.includes(session.id)) ids.push(session.id);
    return this.endIds(session.accountId, ids);
  }

  /** Ends every session of the account (the operator's `sessions end`); answers how many there were. */
  async endAll(accountId: string): Promise<number> {
    const { sessions } = this.store;
    const ids = await this.store.members(keys.siteAccountSessions(accountId));
    // entries whose session lapsed on its own are pruned without counting
    const live = await Promise.all(ids.map(async (id) => typeof (await sessions.fetch(id)).account === 'string'));
    await this.endIds(accountId, ids);
    return live.filter(Boolean).length;
  }

  private async endIds(accountId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    // one key per command: a session's key and the index may sit in different cluster slots
    await Promise.all(ids.map((id) => this.store.sessions.remove(id)));
    await this.store.unindex(keys.siteAccountSessions(accountId), ids);
    // the streams opened on these sessions close now, on whichever pod holds them
    const channel = keys.accountEvents(accountId);
    await Promise.all(ids.map((id) => this.store.publish(channel, endedSessionNotice(sessionKeyId(id)))));
    return ids.length;
  }
}
