/**
 * What a site call needs of HTTP: the session cookie (HttpOnly, SameSite=Lax, Secure unless configured off, and then
 * named with the __Host- prefix: the browser keeps it only for this exact host over https, so no sibling subdomain or
 * plain-http page can set or shadow it), the Origin
 * check against cross-site requests, and an Authenticate that turns a session into the KeyContext the bot routes take.
 *
 * CSRF: an Origin check rather than a token. Every state-changing site call is a fetch POST with a JSON body;
 * browsers send Origin on every cross-origin POST, and a page of another site cannot forge it. The check needs no token
 * carried through every form and page and no extra round trip, and SameSite=Lax already keeps the cookie off
 * cross-site POSTs: the Origin check is the second wall. A call with a session and no Origin at all is not a browser's
 * cross-site request but a script holding the cookie (the original's clients manage keys so), and is served; sign-in,
 * which has no session yet, still needs the site's Origin (docs/SECURITY.md, "Sign-in and sessions").
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
import { withRequestId, type Authenticate } from '../../middleware/authenticate.js';
import { rateLimited, setHeaders } from '../../middleware/rate-limit.js';
import { rateLimitRejections } from '../../../shared/metrics/metrics.js';
import type { CoalescingLimiter } from '../../../shared/rate-limit/coalescing-limiter.js';
import { clientBucket } from '../../../shared/rate-limit/client-bucket.js';
import type { ApiRequest, ApiResponse } from '../../routing/http-types.js';
import type { KeyCheck } from '../../ws/stream-client.js';

export const SESSION_COOKIE = 'pd_session';
/** The cookie's name when it is Secure. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export const sessionCookieName = (secure: boolean): string => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
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

/** The session cookie's value in a request, under the name the Secure setting gives it. */
export function readSessionCookie(req: Pick<IncomingMessage, 'headers'>, options: CookieOptions): string | undefined {
  return readCookie(req, sessionCookieName(options.secure));
}

/**
 * Sets the session cookie for what the session has left (30 days, less near its 90-day end), again on each page load,
 * so it slides with the session in Redis.
 */
export function setSessionCookie(res: ApiResponse, value: string, options: CookieOptions, remainingMs = SESSION_TTL_MS): void {
  const secure = options.secure ? '; Secure' : '';
  const maxAge = Math.ceil(remainingMs / 1000);
  res.setHeader('Set-Cookie', `${sessionCookieName(options.secure)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`);
}

export function clearSessionCookie(res: ApiResponse, options: CookieOptions): void {
  const secure = options.secure ? '; Secure' : '';
  res.setHeader('Set-Cookie', `${sessionCookieName(options.secure)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
}

/**
 * Refuses (403 cross_site) a request whose Origin is not the site's: SITE_URL's origin when set, else the origin whose
 * host is the request's own Host. `absentAllowed`: a request with no Origin header passes (a session call from a script).
 */
export function checkOrigin(req: Pick<IncomingMessage, 'headers'>, siteUrl: string | undefined, absentAllowed = false): void {
  const origin = req.headers.origin;
  if (origin === undefined && absentAllowed) return;
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
  /** The session cookie is Secure (and named __Host-pd_session). */
  cookieSecure: boolean;
  /** The API's limiter: a session's calls spend its account's plan budget, a call without one the keyless IP budget. */
  limiter: CoalescingLimiter;
  publicLimit: number;
}

/**
 * Meters a site call: on its account's plan budget (requests per minute, shared by the account's sessions) when it has
 * a session, else on the client IP's keyless budget, so a page's calls never run into the IP's 60 a minute.
 */
async function meterSiteCall(req: ApiRequest, res: ApiResponse, deps: SiteAuthDeps, ctx: KeyContext | null): Promise<void> {
  const scope = ctx === null ? 'ip' : 'account';
  const limit = ctx === null ? deps.publicLimit : ctx.plan.limits.requestsPerMinute;
  const decision = await deps.limiter.consume(ctx === null ? `ip:${clientBucket(req.ip)}` : `site:${ctx.accountId}`, limit);
  res.locals.rateScope = scope;
  res.locals.rateLimit = limit;
  setHeaders(res, decision, scope);
  if (!decision.allowed) {
    rateLimitRejections.inc({ scope });
    throw rateLimited(decision, `over the budget of ${limit} requests per minute`);
  }
}

/**
 * The session of a request (its Origin checked first when it changes something: another site's is refused, none at
 * all is a script's), or 401 login_required.
 */
export async function requireSession(
  req: Pick<IncomingMessage, 'headers' | 'method'>,
  deps: Pick<SiteAuthDeps, 'sessions' | 'siteUrl' | 'cookieSecure'>,
): Promise<SiteSession> {
  if (req.method !== 'GET' && req.method !== 'HEAD') checkOrigin(req, deps.siteUrl, true);
  const session = await deps.sessions.check(readSessionCookie(req, { secure: deps.cookieSecure }));
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
    let ctx: KeyContext;
    try {
      const session = await requireSession(req as ApiRequest, deps);
      ctx = await sessionContext(session, requestBook(req as ApiRequest), deps);
    } catch (error) {
      if (error instanceof AppError && error.code === 'login_required')
        await meterSiteCall(req as ApiRequest, res as ApiResponse, deps, null);
      throw error;
    }
    await meterSiteCall(req as ApiRequest, res as ApiResponse, deps, ctx);
    res.setHeader('Cache-Control', 'no-store');
    // a site trade carries its request id as a keyed one does
    return withRequestId(ctx, res);
  };
}

/**
 * The stream's check of a site page's socket (api/ws/stream-server.ts siteSession): its Origin (a cookie-authenticated
 * WebSocket is open to cross-site hijacking otherwise), its session and the book in ?book=; null without a session cookie.
 */
export function sessionStreamCheck(deps: SiteAuthDeps): (req: IncomingMessage, url: URL) => (() => Promise<KeyCheck>) | null {
  return (req, url) => {
    if (readSessionCookie(req, { secure: deps.cookieSecure }) === undefined) return null;
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
