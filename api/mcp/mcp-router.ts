/**
 * The MCP server at /mcp: the official SDK's Server speaking the Streamable HTTP transport in its
 * stateless, JSON-response form (no session id, no server-sent stream), so any API pod answers any
 * request. POST /mcp is a catalog route, served on the fast path like the REST routes; its JSON-RPC
 * requests go to the pod's one Server through multiplex-transport.ts. The tools come from the route
 * catalog (mcp-tools.ts) and run as REST calls do (tool-call.ts). GET (a server-sent event stream)
 * and DELETE (ending a session) have nothing to serve without sessions: 405.
 */
import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { SERVICE_VERSION } from '../../shared/core/service.js';
import type { ApiRequest, ApiResponse } from '../routing/http-types.js';
import { sendJsonText } from '../routing/json-text.js';
import { defineRoutes, type RouteCatalog, type RouteGroup } from '../routing/route-catalog.js';
import { McpTools } from './mcp-tools.js';
import { AppError } from '../../shared/core/errors.js';
import { requestApiKey } from '../middleware/authenticate.js';
import { MultiplexTransport, type RequestOwner } from './multiplex-transport.js';
import { callTool, meterMessage, type ToolCallDeps } from './tool-call.js';
import { TOOL_SPECS } from './tool-table.js';

export const MCP_PATH = '/mcp';
/** The most messages a batch may hold: each is metered, but a batch is one HTTP request's worth of work. */
const MAX_BATCH = 10;
/** How long a request waits for the Server's answer before its POST answers a JSON-RPC timeout. */
const REQUEST_DEADLINE_MS = 30_000;
/** JSON-RPC's implementation-defined server error, for a message refused by the limiter (data names the code). */
const REFUSED = -32000;

export interface McpRouteDeps extends ToolCallDeps {
  catalog: RouteCatalog;
}

const INSTRUCTIONS =
  'Perpdesk: crypto market data (get_*, calc_*: no key needed) and a paper-trading futures account (paper_*: needs the API key in the ' +
  'X-API-Key or Authorization: Bearer header of the MCP request). Prices in USDT, money in USD, percentages as percent. Before a real ' +
  'open, price it with paper_open dry_run true; always send a client_order_id and reuse it on a retry.';

/** JSON-RPC's own error, for what never reaches the Server. */
function rpcError(res: ApiResponse, status: number, code: number, message: string): void {
  res.statusCode = status;
  sendJsonText(res, JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** `Authorization: Bearer <key>` counts as X-API-Key when that is absent, for the limiter and authenticate alike. */
function bearerAsApiKey(req: ApiRequest): void {
  const authorization = req.headers.authorization;
  if (req.headers['x-api-key'] !== undefined || !authorization) return;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) req.headers['x-api-key'] = bearer[1];
}

const jsonBody = express.json({ limit: '64kb' });

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isId = (id: unknown): boolean => typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));

/**
 * A JSON-RPC 2.0 message by its frame: a request or notification (a method), or a response (an id with a result
 * or an error). The Server checks each method's params with the SDK's schemas; this only turns away what is not
 * JSON-RPC at all, with the transport's -32700, before anything reaches it.
 */
function isMessage(value: unknown): boolean {
  if (!isRecord(value) || value.jsonrpc !== '2.0') return false;
  if (typeof value.method === 'string') return !('id' in value) || isId(value.id);
  return isId(value.id) && ('result' in value || 'error' in value);
}

const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => 'method' in message && 'id' in message;
const isToolCall = (message: JSONRPCMessage): boolean => isRequest(message) && message.method === 'tools/call';

/** Whose requests a message may name: the same key (by its digest, the key itself kept out of memory), else the same HTTP request. */
function ownerOf(req: ApiRequest): RequestOwner {
  const apiKey = requestApiKey(req);
  return apiKey === null ? req : `key:${createHash('sha256').update(apiKey).digest('hex')}`;
}

/** A refusal by the limiter as a JSON-RPC error: the named code, its status and details in data. */
const refusedError = (refusal: AppError) => ({
  code: REFUSED,
  message: refusal.message,
  data: { code: refusal.code, status: refusal.status, ...refusal.details },
});

function readBody(req: ApiRequest, res: ApiResponse): Promise<unknown> {
  return new Promise((resolve, reject) => jsonBody(req, res, (error?: unknown) => (error ? reject(error) : resolve(req.body))));
}

/** The rate-limit and plan headers of a request's tool calls, for its HTTP response. */
const headersOf = new WeakMap<ApiRequest, ReadonlyMap<string, string>>();

/** The pod's MCP Server over the tool table, its handlers given each call's HTTP request by the transport. */
function mcpServer(deps: McpRouteDeps, transport: MultiplexTransport): Server {
  const tools = new McpTools(deps.catalog, TOOL_SPECS);
  const server = new Server(
    { name: 'perpdesk', version: SERVICE_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: new AjvJsonSchemaValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const req = transport.requestOf(extra.requestId);
    if (!req) throw new Error('a tool call without its HTTP request');
    const { name, arguments: args } = request.params;
    const { result, headers } = await callTool(deps, tools.find(name), name, args, req);
    headersOf.set(req, headers);
    return result;
  });
  return server;
}

/** An Accept header that admits application/json (an absent one admits anything, as HTTP says). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  return accept.split(',').some((range) => /^\s*(application\/json|application\/\*|\*\/\*)\s*(;|$)/i.test(range));
}

/** POST /mcp and GET /mcp (405), as catalog routes. */
export function mcpRoutes(deps: McpRouteDeps): RouteGroup {
  const transport = new MultiplexTransport(REQUEST_DEADLINE_MS);
  const server = mcpServer(deps, transport);
  const connected = server.connect(transport);

  async function post(req: ApiRequest, res: ApiResponse): Promise<void> {
    // every answer is JSON (no stream is ever opened), so accepting JSON is enough; the spec's clients also name text/event-stream
    if (!acceptsJson(req.headers.accept)) {
      return rpcError(res, 406, -32000, 'Not Acceptable: Client must accept application/json');
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      return rpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return rpcError(res, 400, -32000, `Bad Request: Unsupported protocol version: ${version}`);
    }
    let body: unknown;
    try {
      body = await readBody(req, res);
    } catch (error) {
      const tooLarge = (error as { type?: string } | null)?.type === 'entity.too.large';
      return tooLarge
        ? rpcError(res, 413, -32600, 'Invalid Request: the body is larger than 64 kB')
        : rpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    }
    const batch = Array.isArray(body);
    const raw: unknown[] = Array.isArray(body) ? body : [body];
    if (raw.length === 0 || raw.length > MAX_BATCH)
      return rpcError(res, 400, -32600, `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`);
    if (!raw.every(isMessage)) return rpcError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    const messages = raw as JSONRPCMessage[];
    bearerAsApiKey(req);
    // a conditional read (the positions ETag) is REST's: a tool call always gets the answer itself
    delete req.headers['if-none-match'];
    await connected;
    const owner = ownerOf(req);
    const extra = { requestInfo: { headers: req.headers } };
    const refusals: AppError[] = [];
    // a tool call is metered as its route's call (tool-call.ts); every other message here, on the same budget
    const answer = async (message: JSONRPCMessage): Promise<JSONRPCMessage | undefined> => {
      if (!isToolCall(message)) {
        const { refusal, headers } = await meterMessage(deps, req);
        headersOf.set(req, headers);
        if (refusal) {
          refusals.push(refusal);
          return isRequest(message) ? { jsonrpc: '2.0', id: message.id, error: refusedError(refusal) } : undefined;
        }
      }
      if (isRequest(message)) return transport.request(message, owner, req, extra);
      transport.notify(message, owner, extra);
      return undefined;
    };
    const answers = await Promise.all(messages.map(answer));
    const responses = answers.filter((answer): answer is JSONRPCMessage => answer !== undefined);
    for (const [header, value] of headersOf.get(req) ?? []) res.setHeader(header, value);
    // every message refused: the HTTP answer is the refusal's (429 and Retry-After past the budget)
    if (refusals.length === messages.length) {
      const [refusal] = refusals;
      const retryAfter = refusal.details.retry_after;
      if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
      res.statusCode = refusal.status;
      if (responses.length === 0) return sendJsonText(res, JSON.stringify({ jsonrpc: '2.0', error: refusedError(refusal), id: null }));
    }
    // only notifications or responses: accepted, nothing to answer
    if (responses.length === 0) {
      res.statusCode = 202;
      res.end();
      return;
    }
    sendJsonText(res, JSON.stringify(batch ? responses : responses[0]));
  }

  return defineRoutes([
    {
      method: 'post',
      path: MCP_PATH,
      tag: 'mcp',
      style: 'bare',
      summary:
        'Model Context Protocol server (Streamable HTTP, stateless, JSON responses): 29 tools over the market data and ' +
        'paper-trading routes',
      description:
        'JSON-RPC 2.0 messages (initialize, tools/list, tools/call) with Accept: application/json (text/event-stream may be named ' +
        'too; answers are JSON). Keyed tools take the key ' +
        'from X-API-Key or Authorization: Bearer and are metered like the REST routes; refusals are tool results with isError and ' +
        'the named code.',
      handle: ({ req, res }) => post(req, res),
    },
    {
      method: 'get',
      path: MCP_PATH,
      tag: 'mcp',
      style: 'bare',
      summary: 'Not served: the MCP server is stateless and opens no server-sent event stream (405)',
      handle: ({ res }) => {
        res.setHeader('Allow', 'POST');
        rpcError(res, 405, -32000, 'Method not allowed: this MCP server is stateless; send JSON-RPC requests with POST');
      },
    },
  ]);
}

/** Other methods (DELETE ends a session elsewhere): 405 from Express, which serves what the catalog does not. */
export function mcpOtherMethods(req: Request, res: Response, next: () => void): void {
  if (req.path !== MCP_PATH) return next();
  res.setHeader('Allow', 'POST');
  rpcError(res, 405, -32000, 'Method not allowed: this MCP server is stateless; send JSON-RPC requests with POST');
}
