import { buildOpenApiDocument } from '../../openapi/openapi-document.js';
import { defineRoutes, type RouteCatalog, type RouteGroup } from '../../routing/route-catalog.js';

/** The OpenAPI document of every route in the catalog, itself included. */
export interface OpenApiRouteOptions {
  catalog: RouteCatalog;
}

export function openApiRoutes({ catalog }: OpenApiRouteOptions): RouteGroup {
  let cached: Record<string, unknown> | undefined;
  return defineRoutes([
    {
      method: 'get',
      path: '/api/openapi.json',
      tag: 'meta',
      summary: 'This OpenAPI 3.1 document',
      style: 'bare',
      handle: () => (cached ??= buildOpenApiDocument(catalog.routes)),
    },
  ]);
}
