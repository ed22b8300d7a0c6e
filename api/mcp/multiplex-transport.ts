/**
 * The SDK Transport of the pod's one MCP Server: every POST to /mcp hands its JSON-RPC requests to the
 * same connected Server, each under an id of its own, and gets the Server's response back under the
 * id the client sent. Why not a StreamableHTTPServerTransport per request (the SDK's stateless
 * recipe): a new Server and transport per request, the Web Request and Response conversion and the
 * close more than doubled a call's CPU (bench/README.md, MCP rows); the SDK forbids
 * reusing a stateless transport because of colliding request ids, which the private ids here rule out.
 * Nothing is kept between requests but the pending map of requests in flight: any pod answers any request.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { ApiRequest } from '../routing/http-types.js';

interface Pending {
  clientId: RequestId;
  req: ApiRequest;
  resolve(message: JSONRPCMessage): void;
}

export class MultiplexTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly pending = new Map<number, Pending>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The Server's answers: a response goes back to its HTTP request; with no client listening, anything else is dropped. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message || typeof message.id !== 'number') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    pending.resolve({ ...message, id: pending.clientId });
  }

  /** Hands one request of an HTTP request to the Server; resolves with its response (result or error). */
  request(message: JSONRPCRequest, req: ApiRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    const id = ++this.next;
    return new Promise((resolve) => {
      this.pending.set(id, { clientId: message.id, req, resolve });
      this.onmessage?.({ ...message, id }, extra);
    });
  }

  /** A notification (or a response to a request the server never sends): handed over, nothing comes back. */
  notify(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  /** The HTTP request a request in flight came with (its key, its address), by the id the Server sees. */
  requestOf(id: RequestId): ApiRequest | undefined {
    return typeof id === 'number' ? this.pending.get(id)?.req : undefined;
  }
}
