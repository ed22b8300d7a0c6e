/**
 * The response a route handler writes to when a tool, not an HTTP client, calls it. A tool call runs
 * the route's own steps (the rate limiter, authenticate, the handler) in process; this object is the
 * part of a response they use: headers, a status, res.locals, end() for the handlers that send JSON
 * text themselves, and the 'finish' event on which authenticate counts a successful call.
 */
import { EventEmitter } from 'node:events';
import type { ApiLocals, ApiResponse } from '../routing/http-types.js';

export class ToolExchange extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  locals: ApiLocals = {};
  readonly headers = new Map<string, string>();
  /** What a handler sent itself (JSON text), if it did. */
  body: string | undefined;

  setHeader(name: string, value: number | string | readonly string[]): this {
    this.headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.headers.get(name.toLowerCase());
  }

  end(chunk?: unknown): this {
    if (typeof chunk === 'string') this.body = chunk;
    else if (Buffer.isBuffer(chunk)) this.body = chunk.toString('utf8');
    this.headersSent = true;
    return this;
  }

  /** Ends the exchange with the call's outcome: listeners of 'finish' (usage counting) see its status. */
  finish(status: number): void {
    this.statusCode = status;
    this.emit('finish');
  }

  /**
   * The exchange as the response type the middleware and handlers are typed against: they use only
   * the members above (api/routing/http-types.ts keeps Express-only helpers out of them).
   */
  asResponse(): ApiResponse {
    return this as unknown as ApiResponse;
  }
}
