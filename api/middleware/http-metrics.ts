import { httpRequestDuration } from '../../shared/metrics/metrics.js';
import type { ApiRequest, ApiResponse } from '../routing/http-types.js';

/** The route label of a path no route answers: one label, whatever the path was. */
export const UNMATCHED = 'unmatched';

type Child = ReturnType<typeof httpRequestDuration.labels>;

/** The histogram's children of one method and route, one per status class (1xx..5xx), made on first use. */
class StatusChildren {
  private readonly children: (Child | undefined)[] = [];

  constructor(
    private readonly method: string,
    private readonly route: string,
  ) {}

  observe(status: number, seconds: number): void {
    const cls = Math.min(5, Math.max(1, Math.floor(status / 100)));
    let child = this.children[cls];
    if (!child) {
      child = httpRequestDuration.labels(this.method, this.route, `${cls}xx`);
      this.children[cls] = child;
    }
    child.observe(seconds);
  }
}

export interface RouteTemplates {
  /** The template of a fixed path this app answers (a catalog route, /healthz), or undefined. */
  fixed(method: string, path: string): string | undefined;
  /** Templates of paths with parameters: a prefix and the template its paths count under (/api/whsink/ -> /api/whsink/:token). */
  prefixed: readonly { prefix: string; template: string }[];
}

/**
 * Observes each finished request in the HTTP duration histogram under its route template and status
 * class: never the raw path, so a symbol or an id in a URL adds no series. Children are resolved
 * once per method and template and kept (the catalog's paths are a fixed set; every other path
 * shares a template or `unmatched`), so a request costs a map lookup and an observe.
 */
export function httpMetricsObserver(templates: RouteTemplates): (req: ApiRequest, res: ApiResponse, seconds: number) => void {
  const byFixedPath = new Map<string, StatusChildren>();
  const byTemplate = new Map<string, StatusChildren>();
  const childrenOf = (method: string, route: string): StatusChildren => {
    const key = `${method} ${route}`;
    let found = byTemplate.get(key);
    if (!found) {
      found = new StatusChildren(method, route);
      byTemplate.set(key, found);
    }
    return found;
  };
  const resolve = (method: string, path: string): StatusChildren => {
    const key = `${method} ${path}`;
    const known = byFixedPath.get(key);
    if (known) return known;
    const fixed = templates.fixed(method, path);
    if (fixed !== undefined) {
      const children = childrenOf(method, fixed);
      byFixedPath.set(key, children);
      return children;
    }
    const prefixed = templates.prefixed.find((p) => path.startsWith(p.prefix));
    return childrenOf(method, prefixed ? prefixed.template : UNMATCHED);
  };
  return (req, res, seconds) => {
    const url = req.originalUrl ?? req.url ?? '';
    const mark = url.indexOf('?');
    // Node's parser accepts only the methods it knows: a bounded set
    resolve(req.method ?? 'GET', mark < 0 ? url : url.slice(0, mark)).observe(res.statusCode, seconds);
  };
}
