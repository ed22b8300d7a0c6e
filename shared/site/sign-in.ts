/**
 * E-mail sign-in without a password. `start` stores a one-time link (a random token; only its SHA-256 is stored) valid
 * for 15 minutes and mails it; `peek` names the address a link signs in as (the page asks the visitor to confirm it: a
 * link someone else sent cannot sign a visitor into their account unawares); `finish` claims it once (HSETNX on the
 * record: of two openings, one wins), creates the account when the address is new, starts a session, and ends the
 * address's other outstanding links and the session the browser had. Neither answer says whether an account existed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { normalizeEmail } from '../paper/accounts/account-rules.js';
import type { AccountStore } from '../paper/accounts/account-store.js';
import { requireMail, type SiteMailer } from './site-mail.js';
import { keys } from '../redis/keys.js';
import type { SiteStore } from './site-store.js';
import type { SessionService } from './sessions.js';

export const LINK_TTL_MS = 15 * 60_000;
/** Where a link opens: the sign-in page reads the token from the fragment, which no request line, log or Referer carries. */
export const SIGN_IN_PAGE = '/signin';

/** A random secret: 32 bytes, base64url (43 characters). */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a secret (a link token, a session cookie): SHA-256, hex. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const LINK_RECORD_TTL_S = Math.ceil((LINK_TTL_MS * 2) / 1000);

const linkInvalid = (): AppError =>
  new AppError('link_invalid', 'this sign-in link is not valid any more (used, expired or mistyped): ask for a new one');

export interface SignInDeps {
  store: SiteStore;
  mailer: SiteMailer;
  accounts: AccountStore;
  sessions: SessionService;
  clock: Clock;
}

export interface SignedIn {
  /** The session cookie's value: set it, never store it. */
  cookie: string;
  accountId: string;
  email: string;
  /** True when this sign-in created the account. */
  created: boolean;
}

export class SignInService {
  constructor(private readonly deps: SignInDeps) {}

  /**
   * Stores a link for the address and mails it to `${siteUrl}/signin#token=...`. Throws invalid_param for a malformed
   * address, 503 mail_unavailable (before anything is stored) when this server has no way to mail it.
   */
  async start(rawEmail: string, siteUrl: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const { store, mailer, clock } = this.deps;
    requireMail(mailer);
    const now = clock.now();
    const token = randomSecret();
    const id = secretDigest(token);
    await store.links.save(id, { email, created: now, expires: now + LINK_TTL_MS });
    // the record outlives its validity by a little: a late opening reads "expired", not "unknown"
    await Promise.all([store.links.expire(id, LINK_RECORD_TTL_S), store.index(keys.siteEmailLinks(email), id, LINK_RECORD_TTL_S)]);
    await mailer.sendSignIn({ to: email, link: `${siteUrl}${SIGN_IN_PAGE}#token=${token}`, expires: now + LINK_TTL_MS }, now);
  }

  /** The address a link signs in as, without using it: 400 link_invalid when it is unknown, used or expired. */
  async peek(token: string): Promise<{ email: string; expires: number }> {
    const { link } = await this.openLink(token);
    return { email: link.email, expires: link.expires };
  }

  /**
   * Claims the link once and starts a session: 400 link_invalid when it is unknown, used or expired. The address's other
   * links stop working, and the session of `browserCookie` (the one the browser had) ends.
   */
  async finish(token: string, browserCookie?: string): Promise<SignedIn> {
    const { store, accounts, sessions, clock } = this.deps;
    const { id, link } = await this.openLink(token);
    const now = clock.now();
    const { users } = store;
    // the claim is the single use: HSETNX answers true to one opening only
    if (!(await store.claimLink(id, now))) throw linkInvalid();
    const { account, created } = await accounts.ensure(link.email, now);
    const user = await users.fetch(account.id);
    await users.save(account.id, {
      email: account.email,
      created: typeof user.created === 'number' ? user.created : now,
      last_sign_in: now,
    });
    const cookie = await sessions.create({ accountId: account.id, email: account.email }, now);
    await Promise.all([this.endOtherLinks(link.email, id), this.endBrowserSession(browserCookie)]);
    return { cookie, accountId: account.id, email: account.email, created };
  }

  /** A link that can still be used, or link_invalid. */
  private async openLink(token: string): Promise<{ id: string; link: { email: string; expires: number } }> {
    if (!TOKEN_SHAPE.test(token)) throw linkInvalid();
    const id = secretDigest(token);
    const { email, expires, used } = await this.deps.store.links.fetch(id);
    if (typeof email !== 'string' || typeof expires !== 'number' || expires <= this.deps.clock.now() || used !== undefined) {
      throw linkInvalid();
    }
    return { id, link: { email, expires } };
  }

  /** Deletes the address's other links: one command per key, each in its own cluster slot. */
  private async endOtherLinks(email: string, used: string): Promise<void> {
    const { store } = this.deps;
    const index = keys.siteEmailLinks(email);
    const others = (await store.members(index)).filter((id) => id !== used);
    await Promise.all(others.map((id) => store.links.remove(id)));
    await store.unindex(index, [used, ...others]);
  }

  private async endBrowserSession(cookie: string | undefined): Promise<void> {
    const session = await this.deps.sessions.check(cookie);
    if (session !== null) await this.deps.sessions.end(session, false);
  }
}
