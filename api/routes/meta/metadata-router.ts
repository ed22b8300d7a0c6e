/** The public metadata routes: the change history (JSON and RSS) and the plan catalogue. Keyless. */
import type { ServerResponse } from 'node:http';
import Joi from 'joi';
import { arrayOf, bodySchema, nullable, oneOfValues, ref, string } from '../../../shared/core/json-schema.js';
import { CHANGELOG, CURRENT_VERSION } from '../../../shared/meta/changelog.js';
import { changelogRss, changelogView } from '../../../shared/meta/changelog-formats.js';
import { planCatalogue } from '../../../shared/paper/accounts/usage-view.js';
import { PLAN_IDS } from '../../../shared/paper/plans.js';
import type { ApiRequest } from '../../routing/http-types.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';

const ENTRY = bodySchema({
  version: string('Semantic version'),
  date: string('UTC day, YYYY-MM-DD'),
  title: string(),
  changes: arrayOf(string()),
});

const CHANGELOG_RESPONSE = bodySchema({
  current_version: string('The API contract version this service implements (as ping reports it)'),
  entries: arrayOf(ENTRY, 'Newest first'),
  changelog: arrayOf(ENTRY, 'The same list under the older name'),
});

const PLAN_NOTE =
  'Monthly prices in US dollars. A paid plan is bought per month and not renewed automatically; a month bought early is added ' +
  'to the running one. When a paid plan ends the keys drop to Free and keep answering. Keyless market data: 60 requests per minute per IP.';

const APIPLAN_RESPONSE = bodySchema({
  plans: arrayOf(ref('Plan'), 'Free first'),
  note: string(),
  current: nullable(oneOfValues(PLAN_IDS, 'The plan of the API key sent with the request (X-API-Key), null without a valid key')),
});

/** A host header as a URL authority: a name or an IP, an optional port; anything else is not echoed into the feed. */
const AUTHORITY = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The scheme and host the client used, for the feed's absolute links (X-Forwarded-Proto from a TLS-terminating proxy). */
function requestOrigin(req: ApiRequest): string {
  const host = req.headers.host ?? '';
  const forwarded = req.headers['x-forwarded-proto'];
  const scheme = forwarded === 'https' ? 'https' : 'http';
  return `${scheme}://${AUTHORITY.test(host) ? host : 'localhost'}`;
}

/** The feed written whole (the catalog sends nothing more once the answer is written). */
function sendRss(req: ApiRequest, res: ServerResponse): undefined {
  const xml = changelogRss(CHANGELOG, requestOrigin(req));
  res.setHeader('Content-Type', 'application/rss+xml; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(xml));
  res.end(xml);
  return undefined;
}

export function metadataRoutes(): RouteGroup {
  const view = changelogView(CHANGELOG, CURRENT_VERSION);
  const plans = planCatalogue();
  return defineRoutes([
    {
      method: 'get',
      path: '/api/changelog.json',
      tag: 'meta',
      summary: 'The change history, newest first (also as RSS at /api/changelog.xml)',
      description: 'entries and changelog are the same list under its two names. format=json is accepted for older clients.',
      style: 'envelope',
      query: Joi.object({ format: Joi.string().valid('json').description('Accepted for older clients; the answer is the same') }),
      response: CHANGELOG_RESPONSE,
      example: { response: { ...view, entries: view.entries.slice(1, 2), changelog: view.entries.slice(1, 2) } },
      handle: () => view,
    },
    {
      method: 'get',
      path: '/api/changelog.xml',
      tag: 'meta',
      summary: 'The change history as an RSS 2.0 feed',
      style: 'bare',
      mediaType: 'application/rss+xml',
      response: string('RSS 2.0: one item per version, newest first'),
      handle: ({ req, res }) => sendRss(req, res),
    },
    {
      method: 'get',
      path: '/api/changelog',
      tag: 'meta',
      summary: 'The change history by format: json (default) answers as /api/changelog.json, xml as /api/changelog.xml',
      style: 'envelope',
      query: Joi.object({ format: Joi.string().valid('json', 'xml').default('json').description('json (default) or xml (RSS 2.0)') }),
      response: CHANGELOG_RESPONSE,
      example: { response: { ...view, entries: view.entries.slice(1, 2), changelog: view.entries.slice(1, 2) } },
      handle: ({ req, res, query }: { req: ApiRequest; res: ServerResponse; query: { format: 'json' | 'xml' } }) =>
        query.format === 'xml' ? sendRss(req, res) : view,
    },
    {
      method: 'get',
      path: '/api/apiplan',
      tag: 'meta',
      summary: 'The plan catalogue: every API plan with its monthly price, limits and features',
      description:
        'Read from the same plan table the service enforces. current is the plan of the X-API-Key sent along, null without a valid one.',
      style: 'bare',
      response: APIPLAN_RESPONSE,
      example: { response: { plans: plans.slice(0, 1), note: PLAN_NOTE, current: null } },
      handle: ({ res }) => ({ plans, note: PLAN_NOTE, current: res.locals.apiKey?.plan ?? null }),
    },
  ]);
}
