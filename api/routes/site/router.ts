/**
 * The site's API: e-mail sign-in (/api/auth/*) and key management (POST /api/bot/key) in the catalog, and the bot
 * API's trading routes served again under /api/site/<path> for a signed-in page (siteTradingRouter).
 */
import Joi from 'joi';
import type { Clock } from '../../../shared/core/clock.js';
import { AppError } from '../../../shared/core/errors.js';
import { arrayOf, boolean, integer, nullable, number, string, type JsonSchema } from '../../../shared/core/json-schema.js';
import type { AccountStore } from '../../../shared/paper/accounts/account-store.js';
import type { BookRegistry } from '../../../shared/paper/accounts/book-registry.js';
import { secretDigest } from '../../../shared/site/sign-in.js';
import type { SiteServices } from '../../../shared/site/site-services.js';
import type { CoalescingLimiter } from '../../../shared/rate-limit/coalescing-limiter.js';
import { normalizeEmail } from '../../../shared/paper/accounts/account-rules.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import type { ApiRequest } from '../../routing/http-types.js';
import { clearSessionCookie, readCookie, requireSession, SESSION_COOKIE, setSessionCookie, checkOrigin } from './site-session.js';

export interface SiteRouteOptions {
  site: SiteServices;
  accounts: AccountStore;
  books: BookRegistry;
  limiter: CoalescingLimiter;
  clock: Clock;
  /** SITE_URL's origin, when set: links point at it and site calls must come from it. */
  siteUrl: string | undefined;
  cookieSecure: boolean;
  signInPerEmail: number;
  signInPerIp: number;
}

const TAG = 'site';
const emailBody = Joi.object({ email: Joi.string().max(254).required() });
const finishBody = Joi.object({ token: Joi.string().max(100).required() });
const logoutQuery = Joi.object({ all: Joi.string().valid('0', '1', 'true', 'false') });
const keyBody = Joi.object({
  act: Joi.string().valid('list', 'create', 'rename', 'revoke').default('list'),
  name: Joi.string().max(200).allow(''),
  book: Joi.string().max(100),
  key: Joi.string().max(100),
});

const keyRow = {
  type: 'object',
  properties: {
    k: string('the key public id (key_...), never the key'),
    name: string(),
    book: string(),
    calls: integer(),
    last: nullable(integer('last call, epoch ms')),
    revoked: boolean(),
    revoked_ts: nullable(integer()),
    created: integer(),
  },
};
const keyList: JsonSchema = {
  type: 'object',
  properties: {
    ok: boolean(),
    email: string(),
    keys: arrayOf(keyRow),
    plan: { type: 'object', description: 'the account plan: plan, tier, label, until, limits' },
    plans: arrayOf({ type: 'object' }, 'the plan catalogue'),
    created: {
      type: 'object',
      description: 'create only: the new key, shown this once',
      properties: { k: string(), key: string('the API key (pd_...)'), name: string(), book: string() },
    },
  },
};

/** The sign-in budgets, on the API's limiter: per address (by digest: no raw e-mail in a key name) and per client IP. */
async function meterSignIn(options: SiteRouteOptions, email: string, ip: string | undefined): Promise<void> {
  const scopes: [string, number][] = [
    [`signin:ip:${ip ?? 'unknown'}`, options.signInPerIp],
    [`signin:email:${secretDigest(email)}`, options.signInPerEmail],
  ];
  // both budgets in one round trip; each counts the request whether or not the other refuses it
  const decisions = await Promise.all(scopes.map(([scope, limit]) => options.limiter.consume(scope, limit)));
  const refused = decisions.find((decision) => !decision.allowed);
  if (refused) {
    const retryAfter = Math.max(1, Math.ceil((refused.resetAt - options.clock.now()) / 1000));
    throw new AppError('rate_limited', `too many sign-in links asked for; retry in ${retryAfter} s`, {
      limit: refused.limit,
      retry_after: retryAfter,
    });
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin links point at: SITE_URL; without it, the request's own origin (the Origin check made it the Host's) but
 * only on a loopback host: Host and Origin are the sender's to choose, and a link mailed to a victim must never point
 * at a host an attacker named.
 */
function siteOrigin(req: ApiRequest, siteUrl: string | undefined): string {
  if (siteUrl !== undefined) return siteUrl;
  const origin = new URL(String(req.headers.origin));
  if (!LOOPBACK.has(origin.hostname)) {
    throw new AppError('unavailable', 'sign-in links need SITE_URL on this server (without it they are sent for localhost only)');
  }
  return origin.origin;
}

export function siteRoutes(options: SiteRouteOptions): RouteGroup {
  const { site, accounts, books, siteUrl, cookieSecure } = options;
  const cookie = { secure: cookieSecure };
  const auth = { sessions: site.sessions, siteUrl };
  return defineRoutes([
    {
      method: 'post',
      path: '/api/auth/start',
      tag: TAG,
      style: 'envelope',
      summary:
        'Mails a one-time sign-in link (15 minutes, single use) to the address; the answer is the same whether it has an account or not',
      description: `Rate limited per address (${options.signInPerEmail}/min) and per client IP (${options.signInPerIp}/min). Must come from the site's pages (Origin).`,
      body: emailBody,
      errors: ['rate_limited', 'cross_site'],
      response: { type: 'object', properties: { sent: boolean(), expires_in_s: integer() } },
      example: { body: { email: 'trader@example.com' }, response: { sent: true, expires_in_s: 900 } },
      handle: async ({ req, body }: { req: ApiRequest; body: { email: string } }) => {
        checkOrigin(req, siteUrl);
        const email = normalizeEmail(body.email);
        await meterSignIn(options, email, req.ip);
        await site.signIn.start(email, siteOrigin(req, siteUrl));
        return { sent: true, expires_in_s: 900 };
      },
    },
    {
      method: 'post',
      path: '/api/auth/finish',
      tag: TAG,
      style: 'envelope',
      summary: 'Opens a sign-in link: creates the account when the address is new and starts a session (cookie pd_session)',
      body: finishBody,
      errors: ['link_invalid', 'cross_site'],
      response: { type: 'object', properties: { email: string(), account: string(), created: boolean() } },
      handle: async ({ req, res, body }: { req: ApiRequest; res: Parameters<typeof setSessionCookie>[0]; body: { token: string } }) => {
        checkOrigin(req, siteUrl);
        const signedIn = await site.signIn.finish(body.token);
        setSessionCookie(res, signedIn.cookie, cookie);
        return { email: signedIn.email, account: signedIn.accountId, created: signedIn.created };
      },
    },
    {
      method: 'get',
      path: '/api/auth/me',
      tag: TAG,
      style: 'envelope',
      summary: "The session's account and its books (the cookie's 30 days start again); signed_in false without a session",
      response: {
        type: 'object',
        properties: {
          signed_in: boolean(),
          email: string(),
          account: string(),
          books: arrayOf(string()),
          since: number('session start, epoch ms'),
        },
      },
      handle: async ({ req, res }: { req: ApiRequest; res: Parameters<typeof setSessionCookie>[0] }) => {
        res.setHeader('Cache-Control', 'no-store');
        // a page asks before it knows: no session is an answer here, not an error (the pages show the sign-in link)
        const value = readCookie(req, SESSION_COOKIE);
        const session = await site.sessions.check(value);
        const account = session === null ? null : await accounts.get(session.accountId);
        if (session === null || account === null || value === undefined) return { signed_in: false };
        const names = (await books.listBooks(account.id)).map((book) => book.name);
        // the session's Redis expiry slid with this check: the cookie's does too
        setSessionCookie(res, value, cookie);
        return { signed_in: true, email: account.email, account: account.id, books: names, since: session.created };
      },
    },
    {
      method: 'post',
      path: '/api/auth/logout',
      tag: TAG,
      style: 'envelope',
      summary: 'Ends this session, or with ?all=1 every session of the account',
      query: logoutQuery,
      errors: ['login_required', 'cross_site'],
      response: { type: 'object', properties: { ended: integer('sessions ended') } },
      handle: async ({ req, res, query }: { req: ApiRequest; res: Parameters<typeof setSessionCookie>[0]; query: { all?: string } }) => {
        const session = await requireSession(req, auth);
        const ended = await site.sessions.end(session, query.all === '1' || query.all === 'true');
        clearSessionCookie(res, cookie);
        return { ended };
      },
    },
    {
      method: 'post',
      path: '/api/bot/key',
      tag: TAG,
      style: 'bare',
      summary: "The signed-in account's API keys: act list, create (name, optional book), rename (key, name), revoke (key)",
      description:
        'Needs the site session cookie (401 login_required). Each act answers the list { ok, keys: [ { k, name, book, calls, last, revoked } ], plan, plans }; ' +
        'create adds created { k, key } with the new key, shown once. k is the key public id.',
      body: keyBody,
      errors: ['login_required', 'cross_site', 'max_keys', 'max_books', 'bad_book', 'not_found'],
      response: keyList,
      handle: async ({ req, body }: { req: ApiRequest; body: { act: string; name?: string; book?: string; key?: string } }) => {
        const session = await requireSession(req, auth);
        switch (body.act) {
          case 'create':
            return site.keys.create(session, { name: body.name === '' ? undefined : body.name, book: body.book });
          case 'rename':
            return site.keys.rename(session, required(body.key, 'key'), required(body.name, 'name'));
          case 'revoke':
            return site.keys.revoke(session, required(body.key, 'key'));
          default:
            return site.keys.list(session);
        }
      },
    },
  ]);
}

function required(value: string | undefined, param: string): string {
  if (value === undefined || value === '') throw new AppError('missing_param', `${param} is required`, { param });
  return value;
}
