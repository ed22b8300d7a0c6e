/** A keyed trading route in both versions: v1 answers the body as is, v2 the same body minus `ok` in the envelope. */
import { AppError, type ErrorCode } from '../../../shared/core/errors.js';
import type { Side } from '../../../shared/engine/side.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { RouteContext, RouteDefinition } from '../../routing/route-catalog.js';

function withoutOk(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !('ok' in data)) return data;
  const { ok: _ok, ...rest } = data as Record<string, unknown>;
  return rest;
}

/** The context of a keyed route: auth is always there. */
export interface TradingContext<Q, B> extends RouteContext<Q, B> {
  auth: KeyContext;
}

export interface TradingRouteDefinition extends Omit<RouteDefinition, 'path' | 'style' | 'keyed' | 'handle'> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler declares its own validated query and body types
  handle(ctx: TradingContext<any, any>): unknown;
}

export function tradingRoute(path: string, route: TradingRouteDefinition): RouteDefinition[] {
  const handle = (ctx: RouteContext): unknown => {
    // defineRoutes authenticates every keyed route first; no context here is a wiring bug
    if (!ctx.auth) throw new Error(`${path} ran without a key context`);
    return route.handle({ ...ctx, auth: ctx.auth });
  };
  const errors: ErrorCode[] = ['missing_api_key', 'bad_api_key', 'revoked_key', ...(route.errors ?? [])];
  return [
    { ...route, errors, keyed: true, path: `/api/bot/v1${path}`, style: 'bare', handle },
    { ...route, errors, keyed: true, path: `/api/bot/v2${path}`, style: 'envelope', handle: async (ctx) => withoutOk(await handle(ctx)) },
  ];
}

const SIDES = new Map<string, Side>([
  ...['long', 'buy', 'b', 'l', 'bid', 'up', 'bull', '1', '+1'].map((name): [string, Side] => [name, 'long']),
  ...['short', 'sell', 's', 'ask', 'down', 'bear', '-1'].map((name): [string, Side] => [name, 'short']),
]);

/** long or short from any accepted spelling, or 400 side_required with the accepted names. */
export function parseSide(raw: unknown): Side {
  const text = typeof raw === 'string' ? raw.trim().toLowerCase() : typeof raw === 'number' ? String(raw) : undefined;
  const side = text === undefined ? undefined : SIDES.get(text);
  if (side) return side;
  throw new AppError('side_required', raw === undefined ? 'side is required: long or short' : 'side must be long or short (or buy, sell)', {
    param: 'side',
    accepted: ['long', 'short', 'buy', 'sell'],
  });
}
