/** One route of the Binance dialect: its Binance method and path, whether it is SIGNED, and its handler. */
import type { KeyContext } from '../../shared/paper/key-context.js';

/** A request's parameters, query and body merged (shared/binance/signed-request.ts requestParams). */
export type BinanceParams = Readonly<Record<string, string>>;

export interface PublicCall {
  params: BinanceParams;
}

export interface SignedCall extends PublicCall {
  auth: KeyContext;
}

/** signed: true, SIGNED (key, timestamp, signature); 'key', the API key alone (Binance's USER_STREAM); false, public. */
export type BinanceRoute =
  | { method: 'get' | 'post' | 'put' | 'delete'; path: string; signed: false; handle: (call: PublicCall) => unknown }
  | { method: 'get' | 'post' | 'put' | 'delete'; path: string; signed: true | 'key'; handle: (call: SignedCall) => unknown };

/** The same handler at several of Binance's paths (v2 and v3 of one read). */
export function atPaths(paths: readonly string[], route: Omit<BinanceRoute, 'path'>): BinanceRoute[] {
  return paths.map((path) => ({ ...route, path }) as BinanceRoute);
}
