import { expect } from 'chai';
import Joi from 'joi';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { McpTools } from '../../api/mcp/mcp-tools.js';
import { callTool, type ToolCallDeps } from '../../api/mcp/tool-call.js';
import { TOOL_SPECS } from '../../api/mcp/tool-table.js';
import { botRoute } from '../../api/routing/bot-route.js';
import type { ApiRequest } from '../../api/routing/http-types.js';
import { defineRoutes, RouteCatalog } from '../../api/routing/route-catalog.js';

/** Only the account id is read by the routes below. */
const auth = { accountId: 'acct-1' } as KeyContext;
const deps: ToolCallDeps = {
  limit: (_req, _res, next) => next(),
  authenticate: async () => auth,
  logger: createLogger(configWith({ LOG_LEVEL: 'silent' })),
};
const req = { headers: {}, query: {} } as ApiRequest;

/** A catalog with stand-ins of routes other engineers are building: /report (GET) and /realism (GET and POST). */
function catalogWithLaterRoutes(): RouteCatalog {
  const catalog = new RouteCatalog();
  catalog.add(
    defineRoutes(
      [
        ...botRoute('/report', {
          keyed: true,
          method: 'get',
          tag: 'report',
          summary: 'report',
          query: Joi.object({ days: Joi.number().integer().min(1).max(90).default(30).description('Days') }),
          handle: ({ query, auth: key }) => ({ days: query.days, account: key.accountId }),
        }),
        ...botRoute('/realism', {
          keyed: true,
          method: 'get',
          tag: 'realism',
          summary: 'read',
          handle: () => ({ realism: { slippage: false } }),
        }),
        ...botRoute('/realism', {
          keyed: true,
          method: 'post',
          tag: 'realism',
          summary: 'set',
          body: Joi.object({ slippage: Joi.boolean(), margin_tiers: Joi.boolean(), margin_venue: Joi.string() }),
          handle: ({ body }) => ({ ok: true, realism: body }),
        }),
      ],
      { authenticate: async () => auth },
    ),
  );
  return catalog;
}

const answer = (result: CallToolResult): unknown => result.structuredContent;

describe('MCP tool table: tools resolved from the route catalog by path', () => {
  it('holds 29 tools with distinct names, each with a route path and an example in its description', () => {
    expect(new Set(TOOL_SPECS.map((spec) => spec.name)).size).to.equal(29);
    for (const spec of TOOL_SPECS) {
      expect(spec.read ?? spec.write, spec.name).to.match(/^\/api\//);
      expect(spec.description, spec.name).to.match(/Example: \{/);
    }
  });

  it('lists a tool whose route is missing as unavailable and answers tool_unavailable', async () => {
    const tools = new McpTools(new RouteCatalog(), TOOL_SPECS);
    const listed = tools.list().find((tool) => tool.name === 'paper_report');
    expect(listed?.description).to.match(/^Not on this server yet/);
    const { result } = await callTool(deps, tools.find('paper_report'), 'paper_report', {}, req);
    expect(result.isError).to.equal(true);
    expect(answer(result)).to.have.nested.include({ 'error.code': 'tool_unavailable', 'error.status': 501, 'error.tool': 'paper_report' });
  });

  it('works as soon as a route of its path is in the catalog: schema from the route, arguments validated by it', async () => {
    const tools = new McpTools(catalogWithLaterRoutes(), TOOL_SPECS);
    const listed = tools.list().find((tool) => tool.name === 'paper_report');
    expect(listed?.inputSchema.properties).to.deep.equal({
      days: { type: 'integer', minimum: 1, maximum: 90, default: 30, description: 'Days' },
    });
    const ok = await callTool(deps, tools.find('paper_report'), 'paper_report', { days: 7 }, req);
    expect(answer(ok.result)).to.deep.equal({ days: 7, account: 'acct-1' });
    const bad = await callTool(deps, tools.find('paper_report'), 'paper_report', { days: 0 }, req);
    expect(answer(bad.result)).to.have.nested.include({ 'error.code': 'invalid_param', 'error.param': 'days', 'error.status': 400 });
  });

  it('reads a read-and-write tool without arguments and writes when a field only the POST body knows is given', async () => {
    const tools = new McpTools(catalogWithLaterRoutes(), TOOL_SPECS);
    const realism = tools.find('paper_realism');
    expect(answer((await callTool(deps, realism, 'paper_realism', {}, req)).result)).to.deep.equal({ realism: { slippage: false } });
    expect(answer((await callTool(deps, realism, 'paper_realism', { slippage: true }, req)).result)).to.deep.equal({
      ok: true,
      realism: { slippage: true },
    });
    // neither route requires a field, and the tool lists the union of both routes' fields
    const listed = tools.list().find((tool) => tool.name === 'paper_realism');
    expect(listed?.inputSchema.properties).to.have.keys('slippage', 'margin_tiers', 'margin_venue');
    expect(listed?.inputSchema).to.not.have.property('required');
  });

  it('refuses arguments that are not an object, and names an unknown tool', async () => {
    const tools = new McpTools(catalogWithLaterRoutes(), TOOL_SPECS);
    const notObject = await callTool(deps, tools.find('paper_report'), 'paper_report', [1, 2], req);
    expect(answer(notObject.result)).to.have.nested.include({ 'error.code': 'invalid_param', 'error.param': 'arguments' });
    const unknown = await callTool(deps, tools.find('nope'), 'nope', {}, req);
    expect(answer(unknown.result)).to.have.nested.include({ 'error.code': 'not_found', 'error.tool': 'nope' });
  });
});
