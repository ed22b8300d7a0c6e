/**
 * The API's request listener. A request for a catalog route is served straight from Node's http
 * objects: the middleware chain Express would run for its path (request log, security headers,
 * CORS, rate limit), then the route, with the same error handler behind them. Everything else goes
 * to the Express app: paths with parameters (/api/whsink/:token), health checks, the docs, CORS
 * preflights, unknown paths, and URLs in an unusual form. Express alone serves every request the
 * same way (it has the catalog too); this is a shortcut around its router and the prototypes it
 * swaps in on each request, a large part of a trading request's CPU (bench/README.md, design figures).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import proxyAddr from 'proxy-addr';
import type { ApiRequest, ApiResponse, Middleware, Next } from './http-types.js';
import type { BoundRoute, RouteCatalog } from './route-catalog.js';

export interface RequestListenerOptions {
  catalog: RouteCatalog;
  /** The middleware Express runs for a path before its route, in the same order. */
  chainFor(path: string): readonly Middleware[];
  /** Express's error handler of the app, for what the chain or the route throws. */
  onError(error: unknown, req: ApiRequest, res: ApiResponse, next: Next): void;
  /** Serves the rest; its 'query parser fn' and 'trust proxy fn' settings give req.query and req.ip their Express meaning. */
  app: Express;
}

/**
 * A URL that Express's URL parser (parseurl) splits at its first '?': it starts with '/' and holds
 * none of the characters that send parseurl to the full parser. Others go to Express.
 */
const PLAIN_URL = /^\/[^\t\n\f\r #\u00a0\ufeff]*$/;

export function createRequestListener(options: RequestListenerOptions): RequestListener {
  const { catalog, app } = options;
  const parseQuery = app.get('query parser fn') as (text: string) => Record<string, unknown>;
  const trust = app.get('trust proxy fn') as Parameters<typeof proxyAddr>[1];
  return (req, res) => {
    const url = req.url ?? '';
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    const route = PLAIN_URL.test(url) ? catalog.find(req.method, path) : undefined;
    if (!route) {
      app(req, res);
      return;
    }
    serve(route, asApiRequest(req, url, path, mark < 0 ? '' : url.slice(mark + 1)), asApiResponse(res));
  };

  function asApiRequest(req: IncomingMessage, url: string, path: string, query: string): ApiRequest {
    // set in one order on every request, so they all share one shape
    const api = req as ApiRequest;
    api.query = parseQuery(query);
    api.path = path;
    api.baseUrl = '';
    api.originalUrl = url;
    api.ip = proxyAddr(req, trust);
    return api;
  }

  function serve(route: BoundRoute, req: ApiRequest, res: ApiResponse): void {
    const fail: Next = (error) => {
      options.onError(error, req, res, () => undefined);
    };
    runChain(options.chainFor(req.path), req, res, fail, () => {
      void route.handler(req, res, fail);
    });
  }
}

function asApiResponse(res: ServerResponse): ApiResponse {
  const api = res as ApiResponse;
  api.locals = {};
  return api;
}

/** Runs connect-style middleware in order, as Express does: a truthy error skips the rest, a throw counts as one. */
function runChain(chain: readonly Middleware[], req: ApiRequest, res: ApiResponse, fail: Next, last: () => void): void {
  let index = 0;
  const next: Next = (error) => {
    if (error) return fail(error);
    const middleware = chain[index++];
    if (!middleware) return last();
    try {
      middleware(req, res, next);
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}
