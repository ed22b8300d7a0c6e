/**
 * What our middleware and routes use of a request and its response. Express's objects have all of
 * it, and so do the plain Node ones that the request listener prepares for a catalog route
 * (catalog-fast-path.ts). Express-only helpers (res.json, res.status, req.header) are not part of
 * it, so the compiler keeps them out of code that both paths run.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedKeyLocals } from '../../shared/paper/api-key-resolver.js';

/** Whose budget a request spent: its client IP's (keyless), its key's, the bad-key budget, or a site session's account. */
export type RateScope = 'ip' | 'key' | 'bad_key' | 'account';

/** What one request's middleware leaves for the next (Express's res.locals). */
export interface ApiLocals extends ResolvedKeyLocals {
  /** The request id (X-Request-Id), for error logs. */
  requestId?: string;
  rateScope?: RateScope;
  rateLimit?: number;
  /** The key's id when the request carried a valid key (X-API-Key or ?api_key=). */
  apiKeyId?: string;
}

export interface ApiRequest extends IncomingMessage {
  /** The query string, parsed as Express parses it (its 'query parser fn'). */
  query: Record<string, unknown>;
  /** The path below baseUrl, without the query string. */
  path: string;
  /** Where the handling router is mounted ('' outside a mounted router). */
  baseUrl: string;
  /** The request's URL as received. */
  originalUrl: string;
  /** The client's address, with Express's 'trust proxy' setting applied. */
  ip?: string | undefined;
  /** Set by a body parser. */
  body?: unknown;
}

export interface ApiResponse extends ServerResponse {
  locals: ApiLocals;
}

export type Next = (error?: unknown) => void;

/** A connect-style middleware that runs the same under Express and in the request listener. */
export type Middleware = (req: ApiRequest, res: ApiResponse, next: Next) => void;
