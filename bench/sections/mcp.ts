/**
 * MCP against REST in the same run: tools/call get_price against GET /api/bot/v1/price (keyless), and
 * tools/call paper_open against POST /api/bot/v1/open (keyed), on the same API process. get_price runs
 * for a fixed time per round; opens run in bursts like the trading section's (a book holds at most
 * 1,000 positions), each burst on fresh accounts so neither a book's cap nor a key's budget trips.
 * An MCP answer counts only when it is not a tool error; rounds interleave REST and MCP.
 */
import autocannon from 'autocannon';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { median, processCpuMs, type Measurement } from '../lib/harness.js';
import { burst, summarize, type Burst } from './trading.js';

export interface McpBenchOptions {
  apiUrl: string;
  /** The API process, whose CPU per answered call each row reports. */
  apiPid: number | undefined;
  redisUrl: string;
  connections: number;
  durationSeconds: number;
  rounds: number;
  /** Opens per burst, spread over `accountsPerBurst` fresh accounts. */
  opensPerBurst?: number;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const SYMBOLS = ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'ADA', 'AVAX'];

const toolCall = (id: number, name: string, args: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** A 200 whose body is not a tool error (MCP answers 200 either way). */
const answered = (status: number, body: string): boolean => status === 200 && !body.includes('"isError":true');

/** The API process's CPU (user + system) per answered call while `run` ran, µs. */
async function withCpu<T extends { answered: number }>(pid: number | undefined, run: () => Promise<T>): Promise<T & { cpuUs?: number }> {
  const before = processCpuMs(pid);
  const result = await run();
  const after = processCpuMs(pid);
  return before === undefined || after === undefined
    ? result
    : { ...result, cpuUs: ((after - before) * 1000) / Math.max(1, result.answered) };
}

async function timed(
  url: string,
  seconds: number,
  connections: number,
  request: autocannon.Request,
): Promise<Measurement & { answered: number }> {
  let good = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ ...request, onResponse: (status, body) => void (answered(status, body) && good++) }],
  });
  return {
    name: '',
    kind: 'route',
    requestsPerSecond: good / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.requests.total - good,
    errors: result.errors,
    answered: good,
  };
}

async function freshKeys(redisUrl: string, accounts: number, tag: string): Promise<string[]> {
  const redis = createRedis(redisUrl);
  try {
    const { service } = createAccountServices({ redis });
    const keys: string[] = [];
    for (let a = 0; a < accounts; a += 1)
      keys.push((await service.createKey({ email: `mcp-${tag}-${a}@example.org`, plan: 'business' })).apiKey);
    return keys;
  } finally {
    await closeRedis(redis);
  }
}

let opens = 0;

function openRequest(kind: 'rest' | 'mcp', keys: string[], good: { count: number }): autocannon.Request {
  return {
    method: 'POST',
    path: kind === 'rest' ? '/api/bot/v1/open' : '/mcp',
    setupRequest: (req) => {
      const i = opens++;
      const args = {
        symbol: SYMBOLS[i % SYMBOLS.length],
        side: i % 2 ? 'short' : 'long',
        margin_usd: 100,
        leverage: 10,
        client_order_id: `m${i}`,
      };
      const key = keys[i % keys.length];
      return kind === 'rest'
        ? { ...req, headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(args) }
        : { ...req, headers: { ...MCP_HEADERS, 'x-api-key': key }, body: toolCall(i, 'paper_open', args) };
    },
    onResponse: (status, body) => void (answered(status, body) && good.count++),
  };
}

/** One burst of opens through REST or MCP on fresh accounts; only opens that answered a position count. */
async function openBurst(options: McpBenchOptions, kind: 'rest' | 'mcp', round: number): Promise<Burst & { answered: number }> {
  const amount = options.opensPerBurst ?? 2_000;
  const keys = await freshKeys(options.redisUrl, Math.ceil(amount / 500), `${Date.now().toString(36)}-${kind}-${round}`);
  const good = { count: 0 };
  const result = await burst(options.apiUrl, options.connections, amount, openRequest(kind, keys, good));
  return { ...result, ok: good.count, answered: good.count };
}

export async function measureMcp(options: McpBenchOptions): Promise<Measurement[]> {
  const priceRequests: Record<'rest' | 'mcp', autocannon.Request> = {
    rest: { method: 'GET', path: '/api/bot/v1/price?symbol=BTC' },
    mcp: { method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: toolCall(1, 'get_price', { symbol: 'BTC' }) },
  };
  const price: Record<'rest' | 'mcp', (Measurement & { cpuUs?: number })[]> = { rest: [], mcp: [] };
  const open: Record<'rest' | 'mcp', (Burst & { cpuUs?: number })[]> = { rest: [], mcp: [] };
  // warm-up: one short run and one small burst of each
  for (const kind of ['rest', 'mcp'] as const) {
    await timed(options.apiUrl, 1, options.connections, priceRequests[kind]);
    await openBurst({ ...options, opensPerBurst: 200 }, kind, -1);
  }
  for (let round = 0; round < options.rounds; round += 1) {
    for (const kind of ['rest', 'mcp'] as const) {
      price[kind].push(
        await withCpu(options.apiPid, () => timed(options.apiUrl, options.durationSeconds, options.connections, priceRequests[kind])),
      );
      open[kind].push(await withCpu(options.apiPid, () => openBurst(options, kind, round)));
    }
  }
  const cpu = (rows: { cpuUs?: number }[]): number | undefined => {
    const known = rows.map((r) => r.cpuUs).filter((us): us is number => us !== undefined);
    return known.length > 0 ? Math.round(median(known)) : undefined;
  };
  const priceRow = (name: string, rows: (Measurement & { cpuUs?: number })[]): Measurement => ({
    name,
    kind: 'route',
    requestsPerSecond: median(rows.map((r) => r.requestsPerSecond)),
    p50Ms: median(rows.map((r) => r.p50Ms)),
    p99Ms: median(rows.map((r) => r.p99Ms)),
    non2xx: rows.reduce((s, r) => s + r.non2xx, 0),
    errors: rows.reduce((s, r) => s + r.errors, 0),
    serverCpuUsPerRequest: cpu(rows),
  });
  const openRow = (name: string, rows: (Burst & { cpuUs?: number })[]): Measurement => ({
    ...summarize(name, rows),
    serverCpuUsPerRequest: cpu(rows),
  });
  return [
    priceRow('GET /api/bot/v1/price (REST)', price.rest),
    priceRow('MCP tools/call get_price', price.mcp),
    openRow('POST /api/bot/v1/open (REST, bursts)', open.rest),
    openRow('MCP tools/call paper_open (bursts)', open.mcp),
  ];
}

/** The four rows with MCP as a share of REST: in calls per second, and in the API's CPU per call (REST's over MCP's). */
export function mcpTable(rows: Measurement[]): string {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const line = (name: string, rest?: string) => {
    const row = byName.get(name);
    if (!row) return '';
    const base = rest ? byName.get(rest) : undefined;
    const share = base ? (row.requestsPerSecond / base.requestsPerSecond).toFixed(2) : '1.00';
    const cpuShare =
      base?.serverCpuUsPerRequest && row.serverCpuUsPerRequest
        ? (base.serverCpuUsPerRequest / row.serverCpuUsPerRequest).toFixed(2)
        : rest
          ? ''
          : '1.00';
    return `| ${name} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms} | ${row.p99Ms} | ${share} | ${row.serverCpuUsPerRequest ?? ''} | ${cpuShare} | ${row.non2xx + row.errors} |`;
  };
  return [
    '| MCP vs REST | calls/s | p50 ms | p99 ms | share of REST calls/s | API CPU µs/call | share by CPU | not answered |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    line('GET /api/bot/v1/price (REST)'),
    line('MCP tools/call get_price', 'GET /api/bot/v1/price (REST)'),
    line('POST /api/bot/v1/open (REST, bursts)'),
    line('MCP tools/call paper_open (bursts)', 'POST /api/bot/v1/open (REST, bursts)'),
  ].join('\n');
}
