/**
 * Answers built from JSON text serialized once and shared: for large answers that change at most
 * every few seconds (the screener, coins, regional quotes), serializing once per cache period instead
 * of once per request is most of the cost of the request. The handler sends the text itself;
 * respond() then leaves the response alone (headers already sent).
 */
import type { ServerResponse } from 'node:http';
import { MicroCache } from './micro-cache.js';
import type { RouteDefinition } from './route-catalog.js';

/**
 * Writes JSON text as the response body. Express' res.send would also look for an ETag and check
 * freshness; our routes set those themselves where they use them, so the answer is written directly.
 */
export function sendJsonText(res: ServerResponse, json: string): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/** { ok: true, data, ts } with data given as JSON text. */
export function sendEnvelopeText(res: ServerResponse, dataJson: string, now: number = Date.now()): void {
  sendJsonText(res, `{"ok":true,"data":${dataJson},"ts":${now}}`);
}

/** A MicroCache of JSON texts: load() runs at most once per key and ttl, its result is serialized once. */
export class JsonTextCache {
  private readonly cache: MicroCache<string>;

  constructor(ttlMs: number) {
    this.cache = new MicroCache<string>(ttlMs);
  }

  get(key: string, load: () => Promise<unknown> | unknown): Promise<string> {
    return this.cache.get(key, async () => JSON.stringify(await load()));
  }
}

/** A keyless GET route answering a shared snapshot: read() at most once per cache period, serialized once. */
export interface SnapshotRoute extends Omit<RouteDefinition, 'method' | 'handle' | 'keyed'> {
  read(): Promise<unknown> | unknown;
}

/** The route of a snapshot, answered from `cache` (keyed by path) in the route's style. */
export function snapshotRoute(cache: JsonTextCache, { read, ...route }: SnapshotRoute): RouteDefinition {
  const send = route.style === 'envelope' ? sendEnvelopeText : sendJsonText;
  return { ...route, method: 'get', handle: async ({ res }) => send(res, await cache.get(route.path, read)) };
}
