/**
 * Trading from the site: every keyed v2 bot route of the catalog (same schemas, handlers, services and scripts, so the
 * same named errors, stream events and webhooks) served again under /api/site/<path> for the session's account, the
 * book named in X-PD-Book. Built from the catalog once every group is in it, so a keyed route added later (equity)
 * comes with it. Not in the catalog itself: the OpenAPI document describes each route once, as the keyed bot route.
 */
import express, { type Router } from 'express';
import { defineRoutes, type RouteCatalog } from '../../routing/route-catalog.js';
import type { Middleware } from '../../routing/http-types.js';
import { sessionAuthenticate, type SiteAuthDeps } from './site-session.js';

export const SITE_TRADING_PREFIX = '/api/site';
const V2_PREFIX = '/api/bot/v2';

export function siteTradingRouter(catalog: RouteCatalog, auth: SiteAuthDeps): Router {
  const router = express.Router();
  const keyedV2 = catalog.routes.filter((route) => route.keyed && route.path.startsWith(`${V2_PREFIX}/`));
  const group = defineRoutes(keyedV2, { authenticate: sessionAuthenticate(auth) });
  for (const { route, handler } of group.bound) {
    router[route.method](`${SITE_TRADING_PREFIX}${route.path.slice(V2_PREFIX.length)}`, handler as Middleware);
  }
  return router;
}
