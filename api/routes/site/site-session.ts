/**
 * What a site call needs of HTTP: the session cookie (HttpOnly, SameSite=Lax, Secure unless configured off), the Origin
 * check against cross-site requests, and an Authenticate that turns a session into the KeyContext the bot routes take.
 *
 * CSRF: a strict Origin check rather than a token. Every state-changing site call is a fetch POST with a JSON body;
 * browsers send Origin on every such request, and a page of another site cannot forge it. The check needs no token
 * carried through every form and page and no extra round trip, and SameSite=Lax already keeps the cookie off
 * cross-site POSTs in current browsers: the Origin check is the second wall. A POST without Origin (a script with a
 * stolen cookie would not need CSRF anyway) is refused too.
 */
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../../shared/core/clock.js';
import { AppError } from '../../../shared/core/errors.js';
import { MAIN_BOOK } from '../../../shared/paper/accounts/account-rules.js';
import type { AccountStore } from '../../../shared/paper/accounts/account-store.js';
import type { BookRegistry } from '../../../shared/paper/accounts/book-registry.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import { effectivePlan } from '../../../shared/paper/plans.js';
import { SESSION_TTL_MS, sessionKeyId, type SessionService, type SiteSession } from '../../../shared/site/sessions.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import type { ApiRequest, ApiResponse } from '../../routing/http-types.js';
import type { KeyCheck } from '../../ws/stream-client.js';

export const SESSION_COOKIE = 'pd_session';
/** The header a page names the book it trades with (the bot routes' queries and bodies stay as the API has them). */
export const BOOK_HEADER = 'x-pd-book';

export const loginRequired = (): AppError =>
  new AppError('login_required', 'sign in on the site first (POST /api/auth/start with your e-mail)');
const crossSite = (): AppError =>
  new AppError('cross_site', "this call must come from the site's own pages (the Origin header is missing or another site's)");

/** A cookie's value from a Cookie header; undefined when absent. */
export function readCookie(req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  secure: boolean;
}

/** Sets the session cookie for 30 days (again on each page load, so it slides with the session in Redis). */
export function setSessionCookie(res: ApiResponse, value: string, options: CookieOptions): void {
  const secure = options.secure ? '; Secure' : '';
  res.setHeader('Set-Cookie', `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`);
}

export function clearSessionCookie(res: ApiResponse, options: CookieOptions): void {
  const secure = options.secure ? '; Secure' : '';
  res.setHeader('Set-Cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
}

/**
 * Refuses (403 cross_site) a request whose Origin is not the site's: SITE_URL's origin when set, else the origin whose
 * host is the request's own Host.
 */
export function checkOrigin(req: Pick<IncomingMessage, 'headers'>, siteUrl: string | undefined): void {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === '' || origin === 'null') throw crossSite();
  if (siteUrl !== undefined) {
    if (origin !== siteUrl) throw crossSite();
    return;
  }
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw crossSite();
  }
  if (host !== req.headers.host) throw crossSite();
}

export interface SiteAuthDeps {
  sessions: SessionService;
  accounts: AccountStore;
  books: BookRegistry;
  clock: Clock;
  siteUrl: string | undefined;
}

/** The session of a request (its Origin checked first when it changes something), or 401 login_required. */
export async function requireSession(
  req: Pick<IncomingMessage, 'headers' | 'method'>,
  deps: Pick<SiteAuthDeps, 'sessions' | 'siteUrl'>,
): Promise<SiteSession> {
  if (req.method !== 'GET' && req.method !== 'HEAD') checkOrigin(req, deps.siteUrl);
  const session = await deps.sessions.check(readCookie(req, SESSION_COOKIE));
  if (session === null) throw loginRequired();
  return session;
}

/** The context a signed-in page trades under: its account, the book it names (main by default), the account's plan. */
export async function sessionContext(
  session: SiteSession,
  book: string,
  deps: Pick<SiteAuthDeps, 'accounts' | 'books' | 'clock'>,
): Promise<KeyContext> {
  const [account, known] = await Promise.all([
    deps.accounts.get(session.accountId),
    book === MAIN_BOOK ? true : deps.books.hasBook(session.accountId, book),
  ]);
  if (account === null) throw loginRequired();
  if (!known) throw new AppError('bad_book', `this account has no book ${book.slice(0, 40)}`, { param: 'book' });
  return {
    keyId: sessionKeyId(session.id),
    keyName: 'site',
    accountId: account.id,
    email: account.email,
    book,
    bookBound: false,
    plan: effectivePlan(account.plan, deps.clock.now()),
  };
}

/** The book a request names in X-PD-Book, main when it names none. */
function requestBook(req: ApiRequest): string {
  const header = req.headers[BOOK_HEADER];
  const book = Array.isArray(header) ? header.join(',') : header;
  return book === undefined || book === '' ? MAIN_BOOK : book;
}

/** The Authenticate of the site's trading routes: the bot routes' handlers, run for the session's account and book. */
export function sessionAuthenticate(deps: SiteAuthDeps): Authenticate {
  return async (req, res) => {
    const session = await requireSession(req as ApiRequest, deps);
    const ctx = await sessionContext(session, requestBook(req as ApiRequest), deps);
    res.setHeader('Cache-Control', 'no-store');
    return ctx;
  };
}

/**
 * The stream's check of a site page's socket (api/ws/stream-server.ts siteSession): its Origin (a cookie-authenticated
 * WebSocket is open to cross-site hijacking otherwise), its session and the book in ?book=; null without a session cookie.
 */
export function sessionStreamCheck(deps: SiteAuthDeps): (req: IncomingMessage, url: URL) => (() => Promise<KeyCheck>) | null {
  return (req, url) => {
    if (readCookie(req, SESSION_COOKIE) === undefined) return null;
    const book = url.searchParams.get('book') || MAIN_BOOK;
    return async () => {
      try {
        checkOrigin(req, deps.siteUrl);
        const session = await requireSession({ headers: req.headers, method: 'GET' }, deps);
        return { context: await sessionContext(session, book, deps) };
      } catch (error) {
        if (error instanceof AppError && (error.code === 'cross_site' || error.code === 'login_required')) return { code: error.code };
        if (error instanceof AppError && error.code === 'bad_book') return { code: 'login_required' };
        throw error;
      }
    };
  };
}
