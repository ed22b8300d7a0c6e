/**
 * One tools/call, run as its route runs a REST request: the rate limiter meters it on the key (or the
 * client address) the MCP request carries, authenticate resolves a keyed route's key and counts the
 * call once it succeeded, the route's Joi schema validates the arguments, and the route's handler
 * answers. A refusal comes back as a tool error carrying the same named code.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError, ERROR_CODES } from '../../shared/core/errors.js';
import type { Logger } from '../../shared/core/logger.js';
import type { Authenticate } from '../middleware/authenticate.js';
import { namedError } from '../middleware/error-handler.js';
import type { ApiRequest, Middleware } from '../routing/http-types.js';
import { validateInput } from '../routing/validate.js';
import type { ResolvedTool, ToolEntry, ToolRoute } from './mcp-tools.js';
import { ToolExchange } from './tool-exchange.js';

export interface ToolCallDeps {
  /** The app's rate limiter (api/middleware/rate-limit.ts), the one every /api request passes. */
  limit: Middleware;
  authenticate: Authenticate;
  logger: Logger;
}

/** A tool call's result and the headers its route set (rate limit, plan), for the HTTP response. */
export interface ToolOutcome {
  result: CallToolResult;
  headers: ReadonlyMap<string, string>;
}

/** The headers of a call worth passing on to the MCP response: the rate limit's and the plan's. */
const PASSED_HEADERS = /^(x-ratelimit-|x-pd-plan)/;

function meter(limit: Middleware, req: ApiRequest, exchange: ToolExchange): Promise<void> {
  return new Promise((resolve, reject) =>
    limit(req, exchange.asResponse(), (error?: unknown) => (error === undefined ? resolve() : reject(error))),
  );
}

const passedHeaders = (exchange: ToolExchange): ReadonlyMap<string, string> =>
  new Map([...exchange.headers].filter(([header]) => PASSED_HEADERS.test(header)));

/** A message of the protocol itself (initialize, tools/list, ping, a notification) metered: the refusal past the budget, if any. */
export interface MeteredMessage {
  refusal: AppError | null;
  headers: ReadonlyMap<string, string>;
}

/**
 * Meters one message that is not a tool call on the budget a keyless tool call uses (the request's key when it carries
 * one, else its client address). A refused key is charged to the address's bad-key budget and refused by the tool
 * calls themselves: only a spent budget (or a failing limiter) refuses the message.
 */
export async function meterMessage(deps: ToolCallDeps, req: ApiRequest): Promise<MeteredMessage> {
  const exchange = new ToolExchange();
  let refusal: AppError | null = null;
  try {
    await meter(deps.limit, req, exchange);
  } catch (error) {
    const named = namedError(error);
    if (!named) deps.logger.error({ err: error }, 'unhandled error metering an MCP message');
    if (named?.code !== 'bad_api_key' && named?.code !== 'revoked_key') refusal = named ?? new AppError('internal', 'internal error');
  }
  return { refusal, headers: passedHeaders(exchange) };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The tool's arguments under the route's field names, and the filter's own arguments apart. */
function routeInput(
  tool: ResolvedTool,
  args: Record<string, unknown>,
): { input: Record<string, unknown>; filterArgs: Record<string, unknown> } {
  const input: Record<string, unknown> = { ...args };
  const filterArgs: Record<string, unknown> = {};
  for (const name of tool.filterFields) {
    if (name in input) filterArgs[name] = input[name];
    delete input[name];
  }
  for (const [arg, field] of Object.entries(tool.spec.rename ?? {})) {
    if (!(arg in input)) continue;
    input[field] = input[arg];
    delete input[arg];
  }
  return { input, filterArgs };
}

function chooseRoute(tool: ResolvedTool, input: Record<string, unknown>): ToolRoute {
  const { read, write } = tool;
  if (write && (!read || Object.keys(input).some((name) => tool.writeOnly.has(name)))) return write;
  if (read) return read;
  throw new Error(`tool ${tool.spec.name} has no route`);
}

/** A validation error names the tool's argument, not the route's field it was renamed to. */
function inToolTerms(tool: ResolvedTool, error: AppError): AppError {
  const renamed = Object.entries(tool.spec.rename ?? {}).find(([, field]) => field === error.details.param);
  if (!renamed) return error;
  const [arg, field] = renamed;
  return new AppError(error.code, error.message.replace(new RegExp(`\\b${field}\\b`, 'g'), arg), { ...error.details, param: arg });
}

/** The answer a handler gave: returned, or sent as JSON text itself; an envelope route's data. */
function answerOf(route: ToolRoute, returned: unknown, exchange: ToolExchange): unknown {
  const sent: unknown = exchange.body === undefined ? returned : JSON.parse(exchange.body);
  if (exchange.body !== undefined && route.bound.route.style === 'envelope' && isRecord(sent)) return sent.data;
  return sent;
}

function toolSuccess(data: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(data ?? null) }],
    ...(isRecord(data) ? { structuredContent: data } : {}),
  };
}

function toolError(error: AppError): CallToolResult {
  const body = { code: error.code, message: error.message, status: error.status, ...error.details };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }], structuredContent: { error: body } };
}

async function run(deps: ToolCallDeps, tool: ResolvedTool, args: Record<string, unknown>, req: ApiRequest, exchange: ToolExchange) {
  await meter(deps.limit, req, exchange);
  const { input, filterArgs } = routeInput(tool, args);
  const route = chooseRoute(tool, input);
  const { route: definition } = route.bound;
  const res = exchange.asResponse();
  const auth = definition.keyed ? await deps.authenticate(req, res) : undefined;
  const filtered = tool.spec.filter ? validateInput<Record<string, unknown>>(tool.spec.filter.schema, filterArgs) : {};
  let query = {};
  let body = {};
  try {
    if (definition.method === 'get') query = validateInput(route.schema, input);
    else body = validateInput(route.schema, input);
  } catch (error) {
    throw error instanceof AppError ? inToolTerms(tool, error) : error;
  }
  const returned = await definition.handle({ query, body, req, res, auth });
  const data = answerOf(route, returned, exchange);
  return tool.spec.filter ? tool.spec.filter.apply(data, filtered) : data;
}

/** Runs one tools/call of `entry` with `args` for the MCP HTTP request `req`. */
export async function callTool(
  deps: ToolCallDeps,
  entry: ToolEntry | undefined,
  name: string,
  args: unknown,
  req: ApiRequest,
): Promise<ToolOutcome> {
  const exchange = new ToolExchange();
  let status = 200;
  let result: CallToolResult;
  try {
    if (!entry) throw new AppError('not_found', `no tool named ${name}: tools/list names them`, { tool: name });
    if (!entry.available) {
      throw new AppError('tool_unavailable', `${name} is not available on this server yet (its route is not deployed)`, { tool: name });
    }
    if (args !== undefined && !isRecord(args)) throw new AppError('invalid_param', 'arguments must be an object', { param: 'arguments' });
    result = toolSuccess(await run(deps, entry.tool, args ?? {}, req, exchange));
  } catch (error) {
    const named = namedError(error);
    if (!named) deps.logger.error({ err: error, tool: name }, 'unhandled error in an MCP tool');
    const refusal = named ?? new AppError('internal', 'internal error');
    status = refusal.status ?? ERROR_CODES.internal;
    result = toolError(refusal);
  } finally {
    exchange.finish(status);
  }
  return { result, headers: passedHeaders(exchange) };
}
