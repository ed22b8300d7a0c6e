/**
 * A catalog route called in this process, as the HTTP fast path calls it (key, validation, handler, answer), on
 * Node's own request and response objects without a socket: for fuzzing a route's alias once its twin was fuzzed
 * over HTTP (the bot's /v1 and /v2 paths share one definition: schema, handler, key gate).
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { expect } from 'chai';
import { isAppError } from '../../shared/core/errors.js';
import type { ApiRequest, ApiResponse } from '../../api/routing/http-types.js';
import type { BoundRoute, RouteCatalog } from '../../api/routing/route-catalog.js';

export interface CatalogAnswer {
  status: number;
  /** The error the route handed on (the error handler would answer it), if it refused. */
  error?: unknown;
}

/** Input as Express would hand it over: the parsed query (a repeated parameter as an array), the parsed JSON body. */
export interface CatalogInput {
  query?: Record<string, unknown>;
  body?: unknown;
  apiKey?: string;
}

export function catalogRoute(catalog: RouteCatalog, method: string, path: string): BoundRoute {
  const bound = catalog.find(method.toUpperCase(), path);
  if (!bound) throw new Error(`no catalog route ${method} ${path}`);
  return bound;
}

export function callCatalogRoute(bound: BoundRoute, input: CatalogInput): Promise<CatalogAnswer> {
  const { path, method } = bound.route;
  const req = new IncomingMessage(new Socket()) as ApiRequest;
  Object.assign(req, {
    method: method.toUpperCase(),
    url: path,
    path,
    baseUrl: '',
    originalUrl: path,
    query: input.query ?? {},
    headers: input.apiKey ? { 'x-api-key': input.apiKey } : {},
  });
  // already parsed: the body parser leaves a request without a body as it is
  if (input.body !== undefined) req.body = input.body;
  const res = Object.assign(new ServerResponse(req), { locals: {} }) as ApiResponse;
  return new Promise((resolve) => {
    res.end = ((): ApiResponse => {
      resolve({ status: res.statusCode });
      return res;
    }) as ApiResponse['end'];
    void bound.handler(req, res, (error?: unknown) => resolve({ status: isAppError(error) ? error.status : 500, error }));
  });
}

/** What the HTTP fuzz asserts of an answer: 200, or a 4xx with a code of the registry (a 500 for anything else). */
export function expectOkOrNamedRefusal(answer: CatalogAnswer, where: string): true {
  if (answer.status === 200) return true;
  expect(answer.status, `${where}: ${String(answer.error)}`).to.be.within(400, 499);
  expect(isAppError(answer.error), where).to.equal(true);
  return true;
}
