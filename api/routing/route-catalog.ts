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

function parseJsonBody(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => jsonBody(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
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
        const data = await route.handle({ query, body, req, res, auth });
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
    const table = new Map<string, RequestHandler>();
    const dynamic = Router();
    for (const { route, handler } of this.groups.flatMap((group) => group.bound)) {
      if (route.path.includes(':')) dynamic[route.method](route.path, handler);
      else table.set(staticKey(route.method, route.path), handler);
    }
    return (req, res, next) => {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const handler = table.get(staticKey(method, req.path));
      if (handler) return handler(req, res, next);
      return dynamic(req, res, next);
    };
  }
}

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
