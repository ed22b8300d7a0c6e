/**
 * The MCP server at /mcp: the official SDK's Streamable HTTP transport in stateless mode (no session
 * id), so any API pod answers any request. Each POST gets its own SDK server and transport, closed
 * with the response; the tools come from the route catalog (mcp-tools.ts) and run as REST calls do
 * (tool-call.ts). GET (a server-sent event stream) and DELETE (ending a session) have nothing to
 * serve without sessions: 405.
 */
import express, { type Request, type Response, type Router } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_VERSION } from '../../shared/core/service.js';
import type { RouteCatalog } from '../routing/route-catalog.js';
import type { ApiRequest } from '../routing/http-types.js';
import { McpTools } from './mcp-tools.js';
import { callTool, type ToolCallDeps } from './tool-call.js';
import { TOOL_SPECS } from './tool-table.js';

export const MCP_PATH = '/mcp';

export interface McpRouterDeps extends ToolCallDeps {
  catalog: RouteCatalog;
}

const INSTRUCTIONS =
  'Perpdesk: crypto market data (get_*, calc_*: no key needed) and a paper-trading futures account (paper_*: needs the API key in the ' +
  'X-API-Key or Authorization: Bearer header of the MCP request). Prices in USDT, money in USD, percentages as percent. Before a real ' +
  'open, price it with paper_open dry_run true; always send a client_order_id and reuse it on a retry.';

/** JSON-RPC's own errors, for what never reaches the SDK. */
function rpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** `Authorization: Bearer <key>` counts as X-API-Key when that is absent, for the limiter and authenticate alike. */
function bearerAsApiKey(req: Request): void {
  const authorization = req.headers.authorization;
  if (req.headers['x-api-key'] !== undefined || !authorization) return;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) req.headers['x-api-key'] = bearer[1];
}

export function mcpRouter(deps: McpRouterDeps): Router {
  const tools = new McpTools(deps.catalog, TOOL_SPECS);
  const router = express.Router();

  function serverFor(req: ApiRequest, res: Response): Server {
    const server = new Server({ name: 'perpdesk', version: SERVICE_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list() }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const { name, arguments: args } = request.params;
      const { result, headers } = await callTool(deps, tools.find(name), name, args, req);
      if (!res.headersSent) for (const [header, value] of headers) res.setHeader(header, value);
      return result;
    });
    return server;
  }

  router.post(
    '/',
    express.json({ limit: '64kb' }),
    async (req: Request, res: Response) => {
      bearerAsApiKey(req);
      const server = serverFor(req, res);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
    // a body that is not JSON, or too large: JSON-RPC's parse error rather than the REST envelope
    (error: unknown, _req: Request, res: Response, next: (error?: unknown) => void) => {
      const type = (error as { type?: string } | null)?.type;
      if (type === 'entity.parse.failed') return rpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
      if (type === 'entity.too.large') return rpcError(res, 413, -32600, 'Invalid Request: the body is larger than 64 kB');
      next(error);
    },
  );
  router.all('/', (_req, res) => {
    res.setHeader('Allow', 'POST');
    rpcError(res, 405, -32000, 'Method not allowed: this MCP server is stateless; send JSON-RPC requests with POST');
  });
  return router;
}
