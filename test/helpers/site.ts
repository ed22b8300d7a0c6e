/** The site's sign-in as a test walks it: ask for a link, read it from the development outbox, open it, keep the cookie. */
import type { Page } from 'playwright-core';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { readOutbox, type OutboxMail } from '../../shared/site/site-mail.js';
import { SiteStore } from '../../shared/site/site-store.js';
import { getJson, type JsonResponse } from './app.js';
import { waitFor } from './market-wait.js';

export interface SiteVisitor {
  email: string;
  /** The session cookie's value. */
  cookie: string;
  /** The Cookie header that carries it (pd_session, or __Host-pd_session when the cookie is Secure). */
  cookieHeader: string;
  /** A site call with the session cookie and the site's own Origin. */
  call<T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<JsonResponse<T>>;
}

/** A POST as the site's own page sends it (Origin: the site), with an optional cookie. */
export function sitePost<T = Record<string, unknown>>(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  return getJson<T>(`${base}${path}`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The newest outbox mail to the address, once it is there. */
export async function outboxMail(redis: RedisClient, email: string, newerThan = 0): Promise<OutboxMail> {
  const store = new SiteStore(redis);
  return waitFor(
    async () => (await readOutbox(store, email, 1)).find((mail) => mail.ts >= newerThan),
    5_000,
    `a sign-in link for ${email} in the outbox`,
  );
}

/** Signs in through the site's pages as a person would (the link read from the outbox), ending on a ready /trade. */
export async function signInOnPage(page: Page, site: { url: string; redis: RedisClient }, email: string): Promise<void> {
  page.setDefaultTimeout(10_000);
  await page.goto(`${site.url}/signin`);
  await page.getByLabel('E-mail address').fill(email);
  const asked = Date.now();
  await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
  await page.locator('#signin-sent').waitFor();
  const mail = await outboxMail(site.redis, email, asked);
  await page.goto(mail.link);
  await page.getByRole('button', { name: `Sign in as ${email}` }).click();
  await page.waitForURL(`${site.url}/trade`);
  await page.locator('body[data-ready="true"]').waitFor();
}

/** The token of a sign-in link (/signin#token=...). */
export function linkToken(link: string): string {
  const token = new URLSearchParams(new URL(link).hash.slice(1)).get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** The session cookie's value from a Set-Cookie header. */
export function sessionCookie(response: JsonResponse): string {
  return sessionCookiePair(response).value;
}

/** The session cookie's name and value from a Set-Cookie header, and the Cookie header a browser would send back. */
export function sessionCookiePair(response: JsonResponse): { name: string; value: string; header: string } {
  const match = /^((?:__Host-)?pd_session)=([^;]*)/.exec(response.headers.get('set-cookie') ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`no session cookie in ${response.headers.get('set-cookie')}`);
  return { name: match[1], value: match[2], header: `${match[1]}=${match[2]}` };
}

/** Opens a sign-in link's token as the page does after the click: answers the finish response. */
export async function finishSignIn(base: string, redis: RedisClient, email: string, headers: Record<string, string> = {}) {
  const asked = Date.now();
  const started = await sitePost(base, '/api/auth/start', { email });
  if (started.status !== 200) throw new Error(`sign-in start answered ${started.status}: ${JSON.stringify(started.body)}`);
  const mail = await outboxMail(redis, email, asked);
  return sitePost(base, '/api/auth/finish', { token: linkToken(mail.link) }, headers);
}

/** Signs in through the outbox's link and answers a visitor holding the session. */
export async function signIn(base: string, redis: RedisClient, email: string): Promise<SiteVisitor> {
  const finished = await finishSignIn(base, redis, email);
  if (finished.status !== 200) throw new Error(`sign-in finish answered ${finished.status}: ${JSON.stringify(finished.body)}`);
  const { value: cookie, header: cookieHeader } = sessionCookiePair(finished);
  return {
    email,
    cookie,
    cookieHeader,
    call: (method, path, body, headers = {}) =>
      getJson(`${base}${path}`, {
        method,
        headers: {
          cookie: cookieHeader,
          ...(method === 'POST' ? { origin: base } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      }),
  };
}
