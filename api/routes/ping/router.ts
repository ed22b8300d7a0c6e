import { SERVICE_NAME, SERVICE_VERSION } from '../../../shared/core/service.js';
import { defineRoutes, type RouteCatalog, type RouteGroup } from '../../routing/route-catalog.js';

/**
 * The endpoint list is read from the route catalog, so a route added later shows up by itself, followed by
 * the routes Express serves outside it (health checks, docs, whsink).
 */
export interface PingRouteOptions {
  catalog: RouteCatalog;
  /** The keyless rate limit, shown when a request has none of its own. */
  publicLimit: number;
  /** The routes Express serves outside the catalog. */
  outsideCatalog: readonly string[];
}

export function pingRoutes({ catalog, publicLimit, outsideCatalog }: PingRouteOptions): RouteGroup {
  return defineRoutes([
    {
      method: 'get',
      path: '/api/v1/ping',
      tag: 'meta',
      summary: 'Service name, version, rate limit and the list of endpoints',
      style: 'envelope',
      example: {
        response: {
          service: SERVICE_NAME,
          status: 'ok',
          version: SERVICE_VERSION,
          rateLimit: { limit: publicLimit, scope: 'ip', windowSeconds: 60 },
          endpoints: ['/api/v1/ping'],
        },
      },
      handle: ({ res }) => {
        const endpoints = [...new Set([...catalog.endpoints(), ...outsideCatalog])];
        return {
          service: SERVICE_NAME,
          status: 'ok',
          version: SERVICE_VERSION,
          rateLimit: { limit: res.locals.rateLimit ?? publicLimit, scope: res.locals.rateScope ?? 'ip', windowSeconds: 60 },
          endpoints,
        };
      },
    },
  ]);
}
