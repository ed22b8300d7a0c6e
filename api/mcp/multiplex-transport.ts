/**
 * The SDK Transport of the pod's one MCP Server: every POST to /mcp hands its JSON-RPC requests to the
 * same connected Server, each under an id of its own, and gets the Server's response back under the
 * id the client sent. Why not a StreamableHTTPServerTransport per request (the SDK's stateless
 * recipe): a new Server and transport per request, the Web Request and Response conversion and the
 * close more than doubled a call's CPU (bench/README.md, MCP rows); the SDK forbids
 * reusing a stateless transport because of colliding request ids, which the private ids here rule out.
 * Nothing is kept between requests but the pending map of requests in flight: any pod answers any request.
 *
 * Clients share the Server, so nothing a client sends may name another client's request: private ids
 * are random, a client's `notifications/cancelled` is translated here (by its owner and its own id)
 * and never reaches the Server as sent, and every request in flight ends by its answer, its
 * cancellation or its deadline, so no POST waits forever.
 */
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiRequest } from '../routing/http-types.js';

/**
 * Who may cancel a request: the same API key (its digest), or, keyless, only the same HTTP request.
 * Requests of one owner share nothing with another's.
 */
export type RequestOwner = string | ApiRequest;

interface Pending {
  clientId: RequestId;
  owner: RequestOwner;
  req: ApiRequest;
  timer: NodeJS.Timeout;
  resolve(message: JSONRPCMessage): void;
}

/** JSON-RPC's error code for a request the client cancelled (the LSP's RequestCancelled; MCP names none). */
export const REQUEST_CANCELLED = -32800;

const rpcError = (id: RequestId, code: number, message: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, error: { code, message } });

const isCancellation = (message: JSONRPCMessage): message is JSONRPCNotification =>
  'method' in message && !('id' in message) && message.method === 'notifications/cancelled';

export class MultiplexTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly pending = new Map<string, Pending>();
  /** The private ids in flight of each owner: where a cancellation looks for the request it names. */
  private readonly byOwner = new Map<RequestOwner, Set<string>>();

  /** `deadlineMs`: how long a request may wait for the Server's answer before its POST is answered with a timeout. */
  constructor(private readonly deadlineMs: number) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The Server's answers: a response goes back to its HTTP request; with no client listening, anything else is dropped. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message || typeof message.id !== 'string') return;
    this.settle(message.id, message);
  }

  /** Hands one request of an HTTP request to the Server; resolves with its response (result or error), at the latest at the deadline. */
  request(message: JSONRPCRequest, owner: RequestOwner, req: ApiRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => this.settle(id, rpcError(id, ErrorCode.RequestTimeout, `Request timed out: no answer within ${this.deadlineMs} ms`)),
        this.deadlineMs,
      );
      this.pending.set(id, { clientId: message.id, owner, req, timer, resolve });
      let ids = this.byOwner.get(owner);
      if (!ids) this.byOwner.set(owner, (ids = new Set()));
      ids.add(id);
      this.onmessage?.({ ...message, id }, extra);
    });
  }

  /**
   * A notification (or a response to a request the server never sends): handed over, nothing comes back. A cancellation
   * reaches only the owner's own requests of the id it names (translated to their private ids, their POSTs answered);
   * one that names none is dropped.
   */
  notify(message: JSONRPCMessage, owner: RequestOwner, extra: MessageExtraInfo): void {
    if (!isCancellation(message)) return this.onmessage?.(message, extra);
    const { requestId, reason } = message.params ?? {};
    for (const id of this.byOwner.get(owner) ?? []) {
      if (this.pending.get(id)?.clientId !== requestId) continue;
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }, extra);
      this.settle(id, rpcError(id, REQUEST_CANCELLED, 'Request cancelled by the client'));
    }
  }

  /** The HTTP request a request in flight came with (its key, its address), by the id the Server sees. */
  requestOf(id: RequestId): ApiRequest | undefined {
    return typeof id === 'string' ? this.pending.get(id)?.req : undefined;
  }

  /** Requests in flight (answered, cancelled and timed-out ones are gone). */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Ends a request in flight with `message`, under the client's own id; a second end (a late answer) finds nothing. */
  private settle(id: string, message: JSONRPCMessage): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(id);
    const ids = this.byOwner.get(pending.owner);
    ids?.delete(id);
    if (ids?.size === 0) this.byOwner.delete(pending.owner);
    pending.resolve({ ...message, id: pending.clientId });
  }
}
