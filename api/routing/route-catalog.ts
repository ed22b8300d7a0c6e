import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type Joi from 'joi';
import type { ErrorCode } from '../../shared/core/errors.js';
import type { Authenticate, KeyContext } from '../../shared/paper/key-context.js';
import { validateInput } from './validate.js';
import { sendJsonText } from './json-text.js';

/**
 * envelope: { ok, data, ts }; bare: the data as is (calculators, passthroughs, bot v1).
 * Errors take their shape from the path (see error-handler.ts), not from here.
 */
export type ResponseStyle = 'envelope' | 'bare';

export interface RouteContext<Q = Record<string, unknown>, B = Record<string, unknown>> {
  query: Q;
  body: B;
  req: Request;
  res: Response;
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
   * Starts reads the handler will need from the parsed but not yet validated body, while the key
   * gate runs (rateLimit calls it for keyed requests), so both ride one round trip to Redis. It must
   * write nothing and never reject; the handler gets its result as `prefetched` and checks that it
   * matches the validated body.
   */
  prefetch?(body: unknown): unknown;
  // The handler's input types are enforced by its schema at run time; callers narrow with their own types.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler declares its own validated query type
  handle(ctx: RouteContext<any, any>): unknown;
}

export function respond(res: Response, style: ResponseStyle, data: unknown, now: number = Date.now()): void {
  if (res.headersSent) return;
  sendJsonText(res, JSON.stringify(style === 'envelope' ? { ok: true, data, ts: now } : data));
}

export interface RouteGroupOptions {
  /** Required when any route is keyed. */
  authenticate?: Authenticate;
}

export interface BoundRoute {
  route: RouteDefinition;
  handler: RequestHandler;
}

export interface RouteGroup {
  routes: RouteDefinition[];
  bound: BoundRoute[];
}

const jsonBody = express.json({ limit: '64kb' });
/** A request's body is read once, by whichever asks first: a prefetch or its route. */
const parsedBodies = new WeakMap<Request, Promise<void>>();
const prefetches = new WeakMap<Request, Promise<unknown>>();

function parseJsonBody(req: Request, res: Response): Promise<void> {
  let parsed = parsedBodies.get(req);
  if (!parsed) {
    parsed = new Promise((resolve, reject) => jsonBody(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
    parsedBodies.set(req, parsed);
  }
  return parsed;
}

/** Runs a route's prefetch on the request's body; a body that does not parse, or a prefetch that throws, prefetches nothing. */
function startPrefetch(route: RouteDefinition, req: Request, res: Response): void {
  const { prefetch } = route;
  if (!prefetch || prefetches.has(req)) return;
  const body = parseJsonBody(req, res).then(() => req.body as unknown);
  prefetches.set(
    req,
    body.then(
      (parsed) => {
        try {
          return prefetch(parsed);
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
    const handler = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
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

const staticKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

/**
 * All route groups of the app; the ping endpoint list and the OpenAPI document are read from it.
 * Requests reach their route through one table lookup by method and path (Express walks its
 * layers one by one, which costs more than the rest of a cheap request); paths with parameters
 * fall back to an Express router.
 */
export class RouteCatalog {
  private readonly groups: RouteGroup[] = [];

  add(group: RouteGroup): RouteGroup {
    this.groups.push(group);
    return group;
  }

  get routes(): RouteDefinition[] {
    return this.groups.flatMap((group) => group.routes);
  }

  dispatcher(): RequestHandler {
    const table = this.staticTable();
    const dynamic = Router();
    for (const { route, handler } of this.groups.flatMap((group) => group.bound)) {
      if (route.path.includes(':')) dynamic[route.method](route.path, handler);
    }
    return (req, res, next) => {
      const bound = table.get(requestKey(req));
      if (bound) return bound.handler(req, res, next);
      return dynamic(req, res, next);
    };
  }

  /** For rateLimit: starts the prefetch of the request's route, if it has one (static paths only). */
  prefetcher(): (req: Request, res: Response) => void {
    const table = this.staticTable();
    return (req, res) => {
      const route = table.get(requestKey(req))?.route;
      if (route?.prefetch) startPrefetch(route, req, res);
    };
  }

  private staticTable(): Map<string, BoundRoute> {
    const table = new Map<string, BoundRoute>();
    for (const bound of this.groups.flatMap((group) => group.bound)) {
      if (!bound.route.path.includes(':')) table.set(staticKey(bound.route.method, bound.route.path), bound);
    }
    return table;
  }
}

/** The table key of a request, from its full path (a middleware mounted on /api sees the rest in req.path). */
const requestKey = (req: Request): string => staticKey(req.method === 'HEAD' ? 'GET' : req.method, req.baseUrl + req.path);

/**
 * One bot route in both versions: /api/bot/v1/<path> answers the bare body (frozen shapes) and
 * /api/bot/v2/<path> the same body in the { ok, data, ts } envelope.
 */
export function botRoute(path: string, route: Omit<RouteDefinition, 'path' | 'style'>): RouteDefinition[] {
  return [
    { ...route, path: `/api/bot/v1${path}`, style: 'bare' },
    { ...route, path: `/api/bot/v2${path}`, style: 'envelope' },
  ];
}
