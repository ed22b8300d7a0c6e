import express from 'express';
import type { ServerResponse } from 'node:http';
import type Joi from 'joi';
import type { ErrorCode } from '../../shared/core/errors.js';
import type { JsonSchema } from '../../shared/core/json-schema.js';
import type { KnownKey } from '../../shared/paper/api-key-resolver.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { Authenticate } from '../middleware/authenticate.js';
import type { ApiRequest, ApiResponse, Middleware, Next } from './http-types.js';
import { sendJsonText } from './json-text.js';
import { validateInput } from './validate.js';

/**
 * envelope: { ok, data, ts }; bare: the data as is (calculators, passthroughs, bot v1).
 * Errors take their shape from the path (see error-handler.ts), not from here.
 */
export type ResponseStyle = 'envelope' | 'bare';

export interface RouteContext<Q = Record<string, unknown>, B = Record<string, unknown>> {
  query: Q;
  body: B;
  req: ApiRequest;
  res: ApiResponse;
  /** Set on keyed routes: the account, book and plan of the API key. */
  auth?: KeyContext;
  /** What the route's prefetch started, when it has one and it ran (see RouteDefinition.prefetch). */
  prefetched?: unknown;
}

export interface RouteDefinition {
  method: 'get' | 'post';
  /** Full path from the server root, e.g. /api/v1/calc/pnl. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  style: ResponseStyle;
  /** Keyed routes need a valid API key; the handler gets its context as `auth`. */
  keyed?: boolean;
  query?: Joi.ObjectSchema;
  body?: Joi.ObjectSchema;
  /** Codes beyond the validation ones that this route can answer, for the docs. */
  errors?: ErrorCode[];
  example?: { query?: Record<string, string>; body?: Record<string, unknown>; response: unknown };
  /**
   * The schema of the answer's body (bare) or data (envelope; an `ok` property is dropped there, as
   * v2 drops it), built on the named components of api/openapi/components.ts.
   */
  response?: JsonSchema;
  /** The media type of a success that is not JSON (the handler writes it itself), for the docs. */
  mediaType?: string;
  /**
   * Starts reads the handler will need from the parsed but not yet validated body, while the key
   * gate runs (rateLimit calls it for a key this process has found before, with what it knows of
   * that key), so both ride one round trip to Redis. It must write nothing and never reject; the
   * handler gets its result as `prefetched` and checks that it matches the validated body and key.
   */
  prefetch?(body: unknown, key: KnownKey): unknown;
  // The handler's input types are enforced by its schema at run time; callers narrow with their own types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler declares its own validated query type
  handle(ctx: RouteContext<any, any>): unknown;
}

export function respond(res: ServerResponse, style: ResponseStyle, data: unknown, now: number = Date.now()): void {
  if (res.headersSent) return;
  sendJsonText(res, JSON.stringify(style === 'envelope' ? { ok: true, data, ts: now } : data));
}

export interface RouteGroupOptions {
  /** Required when any route is keyed. */
  authenticate?: Authenticate;
}

export interface BoundRoute {
  route: RouteDefinition;
  handler: (req: ApiRequest, res: ApiResponse, next: Next) => Promise<void>;
}

export interface RouteGroup {
  routes: RouteDefinition[];
  bound: BoundRoute[];
}

const jsonBody = express.json({ limit: '64kb' });
/** A request's body is read once, by whichever asks first: a prefetch or its route. */
const parsedBodies = new WeakMap<ApiRequest, Promise<void>>();
const prefetches = new WeakMap<ApiRequest, Promise<unknown>>();

function parseJsonBody(req: ApiRequest, res: ApiResponse): Promise<void> {
  let parsed = parsedBodies.get(req);
  if (!parsed) {
    parsed = new Promise((resolve, reject) => jsonBody(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
    parsedBodies.set(req, parsed);
  }
  return parsed;
}

/** Runs a route's prefetch on the request's body; a body that does not parse, or a prefetch that throws, prefetches nothing. */
function startPrefetch(route: RouteDefinition, req: ApiRequest, res: ApiResponse, key: KnownKey): void {
  const { prefetch } = route;
  if (!prefetch || prefetches.has(req)) return;
  const body = parseJsonBody(req, res).then(() => req.body as unknown);
  prefetches.set(
    req,
    body.then(
      (parsed) => {
        try {
          return prefetch(parsed, key);
        } catch {
          return undefined;
        }
      },
      () => undefined,
    ),
  );
}

/** Binds route definitions to handlers: authenticate, parse, validate, call, shape the response. */
export function defineRoutes(routes: RouteDefinition[], options: RouteGroupOptions = {}): RouteGroup {
  const bound = routes.map((route): BoundRoute => {
    const authenticate = route.keyed ? options.authenticate : undefined;
    if (route.keyed && !authenticate) throw new Error(`${route.path} is keyed but its group has no authenticate`);
    const handler = async (req: ApiRequest, res: ApiResponse, next: Next): Promise<void> => {
      try {
        const auth = authenticate ? await authenticate(req, res) : undefined;
        const query = route.query ? validateInput(route.query, req.query) : {};
        if (route.body) await parseJsonBody(req, res);
        const body = route.body ? validateInput(route.body, req.body ?? {}) : {};
        const prefetch = route.prefetch && prefetches.get(req);
        const data = await route.handle({ query, body, req, res, auth, prefetched: prefetch ? await prefetch : undefined });
        respond(res, route.style, data);
      } catch (error) {
        next(error);
      }
    };
    return { route, handler };
  });
  return { routes, bound };
}

const routeKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

/**
 * All route groups of the app; the ping endpoint list and the OpenAPI document are read from it.
 * Every catalog route has a fixed path (a path with parameters belongs in an Express router of its
 * own, like /api/whsink/:token), so a request finds its route with one table lookup by method and
 * path: the fast path (catalog-fast-path.ts) serves it without Express's router.
 */
export class RouteCatalog {
  private readonly groups: RouteGroup[] = [];
  private readonly table = new Map<string, BoundRoute>();

  add(group: RouteGroup): RouteGroup {
    for (const bound of group.bound) {
      const { method, path } = bound.route;
      if (path.includes(':')) throw new Error(`${path}: catalog routes have fixed paths`);
      const key = routeKey(method, path);
      if (this.table.has(key)) throw new Error(`${key} is defined twice`);
      this.table.set(key, bound);
    }
    this.groups.push(group);
    return group;
  }

  get routes(): RouteDefinition[] {
    return this.groups.flatMap((group) => group.routes);
  }

  /** The routes whose path starts with `prefix`, as ping and the bot 404 list them: GET bare, other methods named. */
  endpoints(prefix = ''): string[] {
    return this.routes
      .filter((r) => r.path.startsWith(prefix))
      .map((r) => (r.method === 'get' ? r.path : `${r.method.toUpperCase()} ${r.path}`));
  }

  /** The route of a method (HEAD answers as GET) and a path without its query string, if the catalog has one. */
  find(method: string | undefined, path: string): BoundRoute | undefined {
    return this.table.get(routeKey(method === 'HEAD' ? 'GET' : (method ?? ''), path));
  }

  /** The catalog as Express middleware: a request that reaches Express anyway is served the same way. */
  expressHandler(): Middleware {
    return (req, res, next) => {
      const bound = this.find(req.method, req.baseUrl + req.path);
      if (bound) void bound.handler(req, res, next);
      else next();
    };
  }

  /** For rateLimit: starts the prefetch of the request's route, if it has one. */
  prefetcher(): (req: ApiRequest, res: ApiResponse, key: KnownKey) => void {
    return (req, res, key) => {
      const route = this.find(req.method, req.baseUrl + req.path)?.route;
      if (route?.prefetch) startPrefetch(route, req, res, key);
    };
  }
}
