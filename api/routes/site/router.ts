/**
 * The site's API: e-mail sign-in (/api/auth/*) and key management (POST /api/bot/key) in the catalog, and the bot
 * API's trading routes served again under /api/site/<path> for a signed-in page (siteTradingRouter).
 */
import Joi from 'joi';
import type { SiteSettings } from '../../../shared/site/site-settings.js';
import { AppError } from '../../../shared/core/errors.js';
import { arrayOf, boolean, integer, nullable, number, string, type JsonSchema } from '../../../shared/core/json-schema.js';
import type { AccountStore } from '../../../shared/paper/accounts/account-store.js';
import type { BookRegistry } from '../../../shared/paper/accounts/book-registry.js';
import type { SignInBudgets } from '../../../shared/site/sign-in-budgets.js';
import type { SiteServices } from '../../../shared/site/site-services.js';
import { clientBucket } from '../../../shared/rate-limit/client-bucket.js';
import { requireMail } from '../../../shared/site/site-mail.js';
import { normalizeEmail } from '../../../shared/paper/accounts/account-rules.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import type { ApiRequest } from '../../routing/http-types.js';
import { clearSessionCookie, readSessionCookie, requireSession, setSessionCookie, checkOrigin } from './site-session.js';

export interface SiteRouteOptions {
  site: SiteServices;
  accounts: AccountStore;
  books: BookRegistry;
  budgets: SignInBudgets;
  /** SITE_URL's origin, when set: links point at it and site calls must come from it. */
  siteUrl: string | undefined;
  cookieSecure: boolean;
  /** What the budgets allow, for the route's description. */
  signInLimits: Pick<SiteSettings, 'signInPerEmail' | 'signInPerIp' | 'signInPerEmailDay'>;
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
  /** create: give the key an HMAC secret too (the Binance dialect's signed requests). */
  secret: Joi.boolean(),
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
      properties: {
        k: string(),
        key: string('the API key (pd_...)'),
        name: string(),
        book: string(),
        secret: string('create with secret: true only: the HMAC secret (64 alphanumerics), shown this once'),
      },
    },
  },
};

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
  const { site, accounts, books, siteUrl, cookieSecure, signInLimits: limits } = options;
  const cookie = { secure: cookieSecure };
  const auth = { sessions: site.sessions, siteUrl, cookieSecure };
  return defineRoutes([
    {
      method: 'post',
      path: '/api/auth/start',
      tag: TAG,
      style: 'envelope',
      summary:
        'Mails a one-time sign-in link (15 minutes, single use) to the address; the answer is the same whether it has an account or not',
      description:
        `Rate limited per mailbox and client IP (${limits.signInPerEmail}/min), per client IP (${limits.signInPerIp}/min) and per ` +
        `mailbox (${limits.signInPerEmailDay}/day); a mailbox ignores case, +tags and Gmail's dots. ` +
        "Must come from the site's pages (Origin). 503 mail_unavailable when the server has no mail server.",
      body: emailBody,
      errors: ['rate_limited', 'cross_site', 'mail_unavailable'],
      response: { type: 'object', properties: { sent: boolean(), expires_in_s: integer() } },
      example: { body: { email: 'trader@example.com' }, response: { sent: true, expires_in_s: 900 } },
      handle: async ({ req, body }: { req: ApiRequest; body: { email: string } }) => {
        checkOrigin(req, siteUrl);
        // no mail server: refused before the budgets are charged
        requireMail(site.mailer);
        const email = normalizeEmail(body.email);
        await options.budgets.charge(email, clientBucket(req.ip));
        await site.signIn.start(email, siteOrigin(req, siteUrl));
        return { sent: true, expires_in_s: 900 };
      },
    },
    {
      method: 'post',
      path: '/api/auth/link',
      tag: TAG,
      style: 'envelope',
      summary: 'Names the address a sign-in link signs in as, without using it: the page asks the visitor to confirm it first',
      description: 'A link someone else sent would otherwise sign the visitor into their account unawares (login CSRF).',
      body: finishBody,
      errors: ['link_invalid', 'cross_site'],
      response: { type: 'object', properties: { email: string(), expires: integer('when the link stops working, epoch ms') } },
      handle: async ({ req, res, body }: { req: ApiRequest; res: Parameters<typeof setSessionCookie>[0]; body: { token: string } }) => {
        checkOrigin(req, siteUrl);
        res.setHeader('Cache-Control', 'no-store');
        return site.signIn.peek(body.token);
      },
    },
    {
      method: 'post',
      path: '/api/auth/finish',
      tag: TAG,
      style: 'envelope',
      summary:
        'Opens a sign-in link: creates the account when the address is new and starts a session (cookie pd_session, ' +
        "__Host-pd_session when Secure); the address's other links and the browser's previous session end",
      body: finishBody,
      errors: ['link_invalid', 'cross_site'],
      response: { type: 'object', properties: { email: string(), account: string(), created: boolean() } },
      handle: async ({ req, res, body }: { req: ApiRequest; res: Parameters<typeof setSessionCookie>[0]; body: { token: string } }) => {
        checkOrigin(req, siteUrl);
        const signedIn = await site.signIn.finish(body.token, readSessionCookie(req, cookie));
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
        const value = readSessionCookie(req, cookie);
        const session = await site.sessions.check(value);
        const account = session === null ? null : await accounts.get(session.accountId);
        if (session === null || account === null || value === undefined) return { signed_in: false };
        const names = (await books.listBooks(account.id)).map((book) => book.name);
        // the session's Redis expiry slid with this check: the cookie's does too
        setSessionCookie(res, value, cookie, session.remainingMs);
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
        'Needs the site session cookie (401 login_required). Each act answers the list { ok, keys: [ { k, name, book, calls, last, ' +
        'revoked } ], plan, plans }; ' +
        'create adds created { k, key } with the new key, shown once (with secret: true, its HMAC secret too, as created.secret, ' +
        'shown once and stored sealed). k is the key public id.',
      body: keyBody,
      errors: ['login_required', 'cross_site', 'max_keys', 'max_books', 'bad_book', 'not_found'],
      response: keyList,
      handle: async ({
        req,
        res,
        body,
      }: {
        req: ApiRequest;
        res: Parameters<typeof setSessionCookie>[0];
        body: { act: string; name?: string; book?: string; key?: string; secret?: boolean };
      }) => {
        // a created key is in the answer: no cache may keep it
        res.setHeader('Cache-Control', 'no-store');
        const session = await requireSession(req, auth);
        switch (body.act) {
          case 'create':
            return site.keys.create(session, { name: body.name === '' ? undefined : body.name, book: body.book, secret: body.secret });
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
