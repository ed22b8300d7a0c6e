/**
 * E-mail sign-in without a password. `start` stores a one-time link (a random token; only its SHA-256 is stored) valid
 * for 15 minutes and mails it; `finish` claims it once (HSETNX on the record: of two openings, one wins), creates the
 * account when the address is new, and starts a session. Neither answer says whether the address had an account.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EntityKeyName } from 'redis-om';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { normalizeEmail } from '../paper/accounts/account-rules.js';
import type { AccountStore } from '../paper/accounts/account-store.js';
import type { SiteMailer } from './site-mail.js';
import type { SiteRedis } from './site-records.js';
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

const linkInvalid = (): AppError =>
  new AppError('link_invalid', 'this sign-in link is not valid any more (used, expired or mistyped): ask for a new one');

export interface SignInDeps {
  records: SiteRedis;
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

  /** Stores a link for the address and mails it to `${siteUrl}/signin#token=...`. Throws invalid_param for a malformed address. */
  async start(rawEmail: string, siteUrl: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const { records, mailer, clock } = this.deps;
    const now = clock.now();
    const token = randomSecret();
    const id = secretDigest(token);
    const { links } = await records.records();
    await links.save(id, { email, created: now, expires: now + LINK_TTL_MS });
    // the record outlives its validity by a little: a late opening reads "expired", not "unknown"
    await links.expire(id, Math.ceil((LINK_TTL_MS * 2) / 1000));
    await mailer.sendSignIn({ to: email, link: `${siteUrl}${SIGN_IN_PAGE}#token=${token}`, expires: now + LINK_TTL_MS }, now);
  }

  /** Claims the link once and starts a session: 400 link_invalid when it is unknown, used or expired. */
  async finish(token: string): Promise<SignedIn> {
    if (!TOKEN_SHAPE.test(token)) throw linkInvalid();
    const { records, accounts, sessions, clock } = this.deps;
    const now = clock.now();
    const id = secretDigest(token);
    const { client, links, users } = await records.records();
    const link = await links.fetch(id);
    if (typeof link.email !== 'string' || typeof link.expires !== 'number' || link.expires <= now) throw linkInvalid();
    // the claim is the single use: HSETNX answers true to one opening only
    const claimed = await client.hSetNX(String(link[EntityKeyName]), 'used', String(now));
    if (!claimed) throw linkInvalid();
    const { account, created } = await accounts.ensure(link.email, now);
    const user = await users.fetch(account.id);
    await users.save(account.id, {
      email: account.email,
      created: typeof user.created === 'number' ? user.created : now,
      last_sign_in: now,
    });
    const cookie = await sessions.create({ accountId: account.id, email: account.email }, now);
    return { cookie, accountId: account.id, email: account.email, created };
  }
}
