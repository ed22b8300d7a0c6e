import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { rowFor } from '../../shared/screener/screener-runner.js';
import { seedCandles, seedDerivatives, seedFearGreed, seedScreener, trendingMinutes } from '../helpers/market-seed.js';
import { getJson } from '../helpers/app.js';
import { botCall, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

/** The original's 28 tools and the 3.0 client's paper_sim, as its clients name them. */
const TOOL_NAMES = [
  'get_price',
  'get_klines',
  'get_markets',
  'get_funding',
  'get_open_interest',
  'get_liquidations',
  'get_screener',
  'get_fear_greed',
  'get_economic_calendar',
  'calc_liquidation',
  'calc_position_size',
  'paper_open',
  'paper_limit_order',
  'paper_close',
  'paper_sltp',
  'paper_modify_order',
  'paper_cancel_order',
  'paper_positions',
  'paper_trades',
  'paper_fees',
  'paper_realism',
  'paper_report',
  'paper_equity',
  'paper_replay',
  'paper_balance',
  'paper_orders',
  'paper_accounts',
  'paper_reset',
  'paper_sim',
];

interface ToolErrorBody {
  code: string;
  message: string;
  status: number;
  param?: string;
}

async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'perpdesk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The answer of a successful call: its structured content, else its text as JSON. */
function data<T = Record<string, unknown>>(result: CallToolResult): T {
  expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
  if (result.structuredContent) return result.structuredContent as T;
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text) as T;
}

function refusal(result: CallToolResult): ToolErrorBody {
  expect(result.isError, JSON.stringify(result.content)).to.equal(true);
  return (result.structuredContent as { error: ToolErrorBody }).error;
}

describe('MCP at /mcp: every tool through the SDK client', function () {
  this.timeout(30_000);
  const stack = useTradingFixture({ BTCUSDT: 65000, ETHUSDT: 3500 });
  let trader: Trader;
  let keyless: Client;
  let keyed: Client;
  const clients: Client[] = [];

  before(async () => {
    await seedDerivatives(stack.redis, {
      BTCUSDT: { fundingRate: 0.0001, oiUsd: 9e9, longPct: 60 },
      ETHUSDT: { fundingRate: -0.0002, oiUsd: 4e9, longPct: 45 },
    });
    // a rising series: the screener's indicators read an uptrend
    const candles = trendingMinutes(120, 60000, 40);
    await seedCandles(stack.redis, 'BTCUSDT', candles.slice(-10));
    const row = rowFor(
      'BTCUSDT',
      candles.map((c) => ({ ...c, closed: true })),
    );
    if (!row) throw new Error('no screener row');
    await seedScreener(stack.redis, [row]);
    await seedFearGreed(stack.redis);
  });
  beforeEach(async () => {
    trader = await createTrader(stack.mod, { plan: 'pro' });
    keyless = await connect(stack.api.url);
    keyed = await connect(stack.api.url, { 'X-API-Key': trader.apiKey });
    clients.push(keyless, keyed);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it('lists the 29 tools, each with a description for a model and an input schema generated from its route', async () => {
    const { tools } = await keyless.listTools();
    expect(tools.map((tool) => tool.name)).to.have.members(TOOL_NAMES);
    expect(tools).to.have.length(29);
    for (const tool of tools) {
      expect(tool.description, tool.name).to.match(/Example: /);
      expect(tool.inputSchema.type).to.equal('object');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const open = byName.get('paper_open')!;
    expect(open.inputSchema.required).to.include.members(['symbol', 'margin_usd', 'leverage']);
    expect(open.inputSchema.properties).to.include.keys('dry_run', 'client_order_id', 'sl', 'tp', 'trail_pct');
    expect(open.description)
      .to.match(/client_order_id/)
      .and.match(/dry_run/);
    // the joi rule's bounds reach the JSON schema: margin_usd 1..100000
    expect((open.inputSchema.properties as Record<string, Record<string, unknown>>).margin_usd).to.include({ minimum: 1, maximum: 100000 });
    // the original's argument names: risk_pct (the route's risk), asset_class (the route's class), set (the route's venue)
    expect(byName.get('calc_position_size')!.inputSchema.required).to.have.members(['balance', 'risk_pct', 'entry', 'stop']);
    expect(byName.get('get_markets')!.inputSchema.properties).to.have.keys('asset_class');
    expect(byName.get('paper_fees')!.inputSchema.properties).to.have.keys('set');
    expect(byName.get('paper_limit_order')!.inputSchema.required).to.include('limit_price');
  });

  it('answers the keyless tools without a key, as their routes do', async () => {
    expect(data(await call(keyless, 'get_price', { symbol: 'btc' }))).to.include({ symbol: 'BTCUSDT', price: 65000 });
    // an array answer comes as text only (structured content is an object); the same candles as the REST route
    const klines = data<{ close: number }[]>(await call(keyless, 'get_klines', { symbol: 'BTC', interval: '1', limit: 3 }));
    const rest = await getJson<{ close: number }[]>(`${stack.api.url}/api/bot/v1/klines?symbol=BTC&interval=1&limit=3`);
    expect(klines).to.deep.equal(rest.body);
    expect(klines.map((k) => k.close)).to.include(64760);
    const funding = data<{ pairs: { pair: string; rate: number }[]; count: number }>(await call(keyless, 'get_funding', { symbol: 'ETH' }));
    expect(funding.pairs.map((p) => [p.pair, p.rate])).to.deep.equal([['ETHUSDT', -0.0002]]);
    const oi = data<{ pairs: { pair: string; oiUsd: number }[] }>(await call(keyless, 'get_open_interest', {}));
    expect(oi.pairs.map((p) => p.pair)).to.have.members(['BTCUSDT', 'ETHUSDT']);
    const liquidations = data<{ coins: unknown[] }>(await call(keyless, 'get_liquidations', { symbol: 'BTC' }));
    expect(liquidations.coins).to.deep.equal([]);
    const screener = data<{ rows: { symbol: string; trend: string }[] }>(await call(keyless, 'get_screener', { symbol: 'BTCUSDT' }));
    expect(screener.rows.map((r) => [r.symbol, r.trend])).to.deep.equal([['BTCUSDT', 'up']]);
    expect(data(await call(keyless, 'get_fear_greed'))).to.include.keys('value', 'classification', 'history');
    expect(data<{ events: unknown[] }>(await call(keyless, 'get_economic_calendar', {})).events).to.have.length.above(0);
    // long liq = 65000 x (1 - 1/10 + 0.5/100) = 58825
    expect(data(await call(keyless, 'calc_liquidation', { entry: 65000, leverage: 10, side: 'long' }))).to.include({
      liquidationPrice: 58825,
    });
    // (10000 x 1%) / |65000 - 64000| = 0.1
    expect(data(await call(keyless, 'calc_position_size', { balance: 10000, risk_pct: 1, entry: 65000, stop: 64000 }))).to.include({
      positionSize: 0.1,
    });
  });

  it('trades through every keyed tool on the key of the MCP request', async () => {
    const markets = data<{ markets: { symbol: string }[] }>(await call(keyed, 'get_markets', { asset_class: 'crypto' }));
    expect(markets.markets.map((m) => m.symbol)).to.include('BTCUSDT');
    const dry = data<{ dry_run: boolean }>(
      await call(keyed, 'paper_open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, dry_run: true }),
    );
    expect(dry.dry_run).to.equal(true);
    const opened = data<{ position: { id: string; liq_price: number } }>(
      await call(keyed, 'paper_open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, client_order_id: 'mcp-1' }),
    );
    expect(opened.position.liq_price).to.equal(58825);
    const id = opened.position.id;
    expect(data(await call(keyed, 'paper_sltp', { id, sl: 60000 }))).to.have.nested.property('position.sl', 60000);
    const positions = data<{ positions: { id: string }[] }>(await call(keyed, 'paper_positions', {}));
    expect(positions.positions.map((p) => p.id)).to.deep.equal([id]);
    const order = data<{ order: { order_id: string; type: string; status: string } }>(
      await call(keyed, 'paper_limit_order', { symbol: 'ETH', side: 'long', margin_usd: 50, leverage: 5, limit_price: 3000 }),
    );
    expect(order.order).to.include({ type: 'limit', status: 'open' });
    expect(data(await call(keyed, 'paper_modify_order', { order_id: order.order.order_id, limit_price: 3100 }))).to.have.nested.property(
      'order.limit_price',
      3100,
    );
    expect(data<{ orders: unknown[] }>(await call(keyed, 'paper_orders')).orders).to.have.length(1);
    expect(data(await call(keyed, 'paper_cancel_order', { order_id: order.order.order_id }))).to.include({ status: 'cancelled' });
    expect(data(await call(keyed, 'paper_fees', { set: 'hyperliquid' }))).to.include({ ok: true, fee_venue: 'hyperliquid' });
    expect(data(await call(keyed, 'paper_fees'))).to.include({ fee_venue: 'hyperliquid' });
    expect(data(await call(keyed, 'paper_close', { id }))).to.have.nested.property('position.status', 'closed');
    expect(data<{ trades: unknown[] }>(await call(keyed, 'paper_trades', { limit: 10 })).trades).to.have.length(1);
    expect(data(await call(keyed, 'paper_balance'))).to.include({ starting_balance_usd: 10000 });
    expect(data(await call(keyed, 'paper_accounts'))).to.have.property('accounts');
    expect(data(await call(keyed, 'paper_reset', { confirm: true }))).to.include({ ok: true });
    // REST sees what the tools did on the same key
    const rest = await botCall<{ trades: unknown[] }>(stack.api.url, trader, 'GET', '/trades');
    expect(rest.body.trades).to.deep.equal([]);
  });

  it('serves every tool: none is listed as missing, and the book tools answer what their routes answer', async () => {
    const { tools } = await keyed.listTools();
    expect(tools).to.have.length(29);
    expect(tools.filter((tool) => tool.description?.startsWith('Not on this server yet')).map((tool) => tool.name)).to.deep.equal([]);
    const routes = { paper_realism: '/realism', paper_report: '/report', paper_equity: '/equity', paper_sim: '/sim' };
    for (const [name, path] of Object.entries(routes)) {
      const rest = await botCall<Record<string, unknown>>(stack.api.url, trader, 'GET', path);
      expect(rest.status, path).to.equal(200);
      const { ts: _restTs, ...expected } = rest.body;
      const { ts: _toolTs, ...answered } = data(await call(keyed, name));
      expect(answered, name).to.deep.equal(expected);
    }
    // no replay runs: the tool answers what the route answers
    const replay = await botCall<Record<string, unknown>>(stack.api.url, trader, 'GET', '/replay');
    expect(replay.status).to.equal(200);
    expect(data(await call(keyed, 'paper_replay'))).to.deep.equal(replay.body);
  });

  it('refuses bad arguments with the route’s named codes, naming the argument as the tool spells it', async () => {
    expect(refusal(await call(keyless, 'get_price', {}))).to.include({ code: 'missing_symbol', param: 'symbol', status: 400 });
    expect(refusal(await call(keyless, 'get_price', { symbol: 'NOPE' }))).to.include({ code: 'unknown_symbol', status: 404 });
    expect(refusal(await call(keyless, 'get_klines', { symbol: 'BTC', interval: '7' }))).to.include({ code: 'bad_interval' });
    expect(refusal(await call(keyless, 'calc_position_size', { balance: 10000, risk_pct: 0, entry: 65000, stop: 64000 }))).to.include({
      code: 'invalid_param',
      param: 'risk_pct',
    });
    expect(refusal(await call(keyed, 'paper_open', { symbol: 'BTC', side: 'long', margin_usd: 0.5, leverage: 10 }))).to.include({
      code: 'margin_usd_min_1',
      param: 'margin_usd',
    });
    expect(refusal(await call(keyed, 'paper_open', { symbol: 'BTC', side: 'sideways', margin_usd: 10, leverage: 10 }))).to.include({
      code: 'side_required',
    });
    expect(refusal(await call(keyed, 'paper_open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 5000 }))).to.include({
      code: 'leverage_max',
    });
    expect(refusal(await call(keyed, 'paper_reset', {}))).to.include({ code: 'confirm_required' });
    expect(refusal(await call(keyed, 'no_such_tool'))).to.include({ code: 'not_found' });
  });

  it('refuses keyed tools without a key (missing_api_key) or with a bad one (bad_api_key), and takes Authorization: Bearer', async () => {
    expect(refusal(await call(keyless, 'paper_positions'))).to.include({ code: 'missing_api_key', status: 401 });
    const wrong = await connect(stack.api.url, { 'X-API-Key': 'pd_notakeyatall00000000000000' });
    clients.push(wrong);
    expect(refusal(await call(wrong, 'paper_balance'))).to.include({ code: 'bad_api_key', status: 401 });
    const bearer = await connect(stack.api.url, { Authorization: `Bearer ${trader.apiKey}` });
    clients.push(bearer);
    expect(data(await call(bearer, 'paper_balance'))).to.include({ starting_balance_usd: 10000 });
  });

  it('opens once for a client_order_id retried twice', async () => {
    const order = { symbol: 'ETH', side: 'short', margin_usd: 20, leverage: 3, client_order_id: 'agent-retry-1' };
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(data<{ position: { id: string }; idempotent: boolean }>(await call(keyed, 'paper_open', order)));
    expect(answers.map((a) => a.idempotent)).to.deep.equal([false, true, true]);
    expect(new Set(answers.map((a) => a.position.id)).size).to.equal(1);
    const rest = await botCall<{ positions: unknown[] }>(stack.api.url, trader, 'GET', '/positions');
    expect(rest.body.positions).to.have.length(1);
  });

  it('meters keyed tool calls like REST calls on the key: rate-limit headers, usage counted only for successes', async () => {
    const rpc = (id: number) =>
      fetch(`${stack.api.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': trader.apiKey },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'paper_balance', arguments: {} } }),
      });
    const first = await rpc(1);
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-ratelimit-limit')).to.equal('600');
    expect(first.headers.get('x-ratelimit-scope')).to.equal('key');
    expect(first.headers.get('x-pd-plan')).to.equal('pro');
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    expect(refusal(await call(keyed, 'paper_reset', {}))).to.include({ code: 'confirm_required' });
    await call(keyed, 'paper_balance');
    const last = await rpc(2);
    // three more calls on the key's budget, the refused one included (as REST counts a 400)
    expect(Number(last.headers.get('x-ratelimit-remaining'))).to.equal(remaining - 3);
    await stack.api.flush();
    const usage = await botCall<{ used: { calls_today: number } }>(stack.api.url, trader, 'GET', '/usage');
    // the three successful paper_balance calls; the refused reset is not usage (the /usage call itself counts once it has answered)
    expect(usage.body.used.calls_today).to.equal(3);
  });

  it('refuses a tool call past the key budget with rate_limited, on the budget REST calls share', async () => {
    const free = await createTrader(stack.mod, { plan: 'free' });
    const freeClient = await connect(stack.api.url, { 'X-API-Key': free.apiKey });
    clients.push(freeClient);
    // Free: 120 calls a minute per key; the client's initialize and initialized, 58 through REST and 60 tool calls use it up
    const rest = await Promise.all(Array.from({ length: 58 }, () => botCall(stack.api.url, free, 'GET', '/balance')));
    expect(rest.every((r) => r.status === 200)).to.equal(true);
    const calls = await Promise.all(Array.from({ length: 60 }, () => call(freeClient, 'paper_balance')));
    expect(calls.every((r) => r.isError !== true)).to.equal(true);
    const over = refusal(await call(freeClient, 'paper_balance'));
    expect(over).to.include({ code: 'rate_limited', status: 429, limit: 120 });
    expect((over as unknown as { retry_after: number }).retry_after).to.be.within(1, 60);
    expect((await botCall(stack.api.url, free, 'GET', '/balance')).status).to.equal(429);
  });

  it('speaks stateless Streamable HTTP: 405 for GET and DELETE, 406, 415, 202 for notifications, batches, JSON-RPC parse errors', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${stack.api.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      });
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${stack.api.url}/mcp`, { method, headers: { accept: 'application/json, text/event-stream' } });
      expect([r.status, r.headers.get('allow')], method).to.deep.equal([405, 'POST']);
    }
    const rpcCode = async (r: Response) => ((await r.json()) as { error: { code: number } }).error.code;
    const notJson = await post('{"jsonrpc":');
    expect([notJson.status, await rpcCode(notJson)]).to.deep.equal([400, -32700]);
    const notRpc = await post('{"hello":1}');
    expect([notRpc.status, await rpcCode(notRpc)]).to.deep.equal([400, -32700]);
    // the answers are JSON, never a stream: a client that accepts JSON alone is served; one that cannot take JSON is not
    const jsonOnly = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { accept: 'application/json' });
    expect(jsonOnly.status).to.equal(200);
    expect(((await jsonOnly.json()) as { result: { tools: unknown[] } }).result.tools).to.have.length(29);
    for (const accept of ['text/event-stream', 'text/html']) expect((await post('{}', { accept })).status, accept).to.equal(406);
    expect((await post('{}', { 'content-type': 'text/plain' })).status).to.equal(415);
    expect((await post('{}', { 'mcp-protocol-version': '1999-01-01' })).status).to.equal(400);
    const notification = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect([notification.status, await notification.text()]).to.deep.equal([202, '']);
    const batch = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'get_price', arguments: { symbol: 'ETH' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'b', method: 'no/such/method' },
      ]),
    );
    const answers = (await batch.json()) as { id: string; result?: { structuredContent: { price: number } }; error?: { code: number } }[];
    expect(answers.map((a) => a.id)).to.deep.equal(['a', 'b']);
    expect(answers[0].result?.structuredContent.price).to.equal(3500);
    expect(answers[1].error?.code).to.equal(-32601);
  });

  it('keeps concurrent requests apart when every client uses the same JSON-RPC id', async () => {
    const traders = await Promise.all(Array.from({ length: 4 }, () => createTrader(stack.mod, { plan: 'pro' })));
    const calls = Array.from({ length: 40 }, (_, i) => {
      const who = traders[i % traders.length];
      const symbol = i % 2 ? 'ETH' : 'BTC';
      return fetch(`${stack.api.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': who.apiKey },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'paper_open', arguments: { symbol, side: 'long', margin_usd: 10 + i, leverage: 2, dry_run: true } },
        }),
      }).then(async (r) => ({
        i,
        symbol,
        body: (await r.json()) as { id: number; result: { structuredContent: { position: { symbol: string; margin_usd: number } } } },
      }));
    });
    for (const { i, symbol, body } of await Promise.all(calls)) {
      expect(body.id).to.equal(1);
      // each answer is its own request's: the symbol and the margin it sent
      expect(body.result.structuredContent.position).to.include({ symbol: symbol, margin_usd: 10 + i });
    }
  });
});
