/**
 * The bot API's one route helper: a route in both versions. /api/bot/v1/<path> answers the body as
 * is (frozen shapes); /api/bot/v2/<path> the same body minus `ok` in the { ok, data, ts } envelope.
 * A keyed route also names the key errors, and its handler always gets the key's context as `auth`.
 */
import type { ErrorCode } from '../../shared/core/errors.js';
import type { JsonSchema } from '../../shared/core/json-schema.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { RouteContext, RouteDefinition } from './route-catalog.js';

/** The context of a keyed route: auth is always there. */
export interface KeyedContext<Q, B> extends RouteContext<Q, B> {
  auth: KeyContext;
}

type BotRouteBase = Omit<RouteDefinition, 'path' | 'style' | 'keyed' | 'handle'>;

export interface KeylessBotRoute extends BotRouteBase {
  keyed?: false;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler declares its own validated query and body types
  handle(ctx: RouteContext<any, any>): unknown;
}

export interface KeyedBotRoute extends BotRouteBase {
  keyed: true;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler declares its own validated query and body types
  handle(ctx: KeyedContext<any, any>): unknown;
}

const KEY_ERRORS: ErrorCode[] = ['missing_api_key', 'bad_api_key', 'revoked_key'];

function withoutOk(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !('ok' in data)) return data;
  const { ok: _ok, ...rest } = data as Record<string, unknown>;
  return rest;
}

export function botRoute(path: string, route: KeylessBotRoute | KeyedBotRoute): RouteDefinition[] {
  let shared: Omit<RouteDefinition, 'path' | 'style'>;
  if (route.keyed) {
    const keyedHandle = route.handle;
    shared = {
      ...route,
      errors: [...KEY_ERRORS, ...(route.errors ?? [])],
      handle: (ctx: RouteContext) => {
        // defineRoutes authenticates every keyed route first; no context here is a wiring bug
        if (!ctx.auth) throw new Error(`${path} ran without a key context`);
        return keyedHandle({ ...ctx, auth: ctx.auth });
      },
    };
  } else {
    shared = route;
  }
  return [
    { ...shared, path: `/api/bot/v1${path}`, style: 'bare' },
    { ...shared, path: `/api/bot/v2${path}`, style: 'envelope', handle: async (ctx) => withoutOk(await shared.handle(ctx)) },
  ];
}

/** A keyed bot route with its path, as keyedBotRoutes takes it. */
export type KeyedBotRouteAt = Omit<KeyedBotRoute, 'keyed' | 'tag'> & { path: string };

/** The keyed bot routes of one resource (one docs tag), each in both versions. */
export function keyedBotRoutes(tag: string, routes: readonly KeyedBotRouteAt[]): RouteDefinition[] {
  return routes.flatMap(({ path, ...route }) => botRoute(path, { ...route, keyed: true, tag }));
}

/** A keyed GET that answers a view of the key's book and takes no input (/account, /balance, /accounts). */
export function bookView(path: string, response: JsonSchema, summary: string, view: (auth: KeyContext) => unknown): KeyedBotRouteAt {
  return { path, method: 'get', response, summary, handle: ({ auth }) => view(auth) };
}
