/**
 * Trading benchmarks: opens and closes per second through HTTP on one API process at saturation,
 * and p99 latency at a fixed offered load of 1,000 requests per second, for one account and for
 * 1,000 accounts. Keys are real (created through the account service), the rate limiter is on,
 * prices come from the simulated exchange through the feed.
 *
 * One account: a book holds at most 1,000 open positions (the Business cap), so saturation is
 * measured in bursts: 1,000 opens as fast as they go, then the 1,000 closes of those positions,
 * repeated; the rate is requests / wall time summed over the bursts. The account's 100 keys (the
 * Business maximum) share the load so no key's per-minute budget trips. 1,000 accounts: the same
 * with 4,000 opens per burst spread over the accounts' keys. Fixed load (bench/lib/paced-load.ts): an
 * open-loop schedule of 1,000 req/s alternating opens and closes of earlier opens, measured in
 * interleaved rounds with the two bare servers at the same paced rate, so the p99 can be read
 * against what the machine gives a server that does nothing.
 */
import autocannon from 'autocannon';
import { median, processCpuMs, type Measurement } from '../lib/harness.js';
import { createKeys, keyHeaders as headers } from '../lib/keys.js';
import { pacedLoad, quantile, type PacedOptions, type PacedResult } from '../lib/paced-load.js';

const SYMBOLS = ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'ADA', 'AVAX'];

export interface TradingBenchOptions {
  redisUrl: string;
  /**
   * The API processes measured, each row once per process with its suffix in the name; with several, their bursts and
   * paced rounds interleave (the same background load hits them alike).
   */
  apis: TradingApi[];
  connections: number;
  /** Bursts per saturation row. */
  bursts: number;
  /** Seconds of each fixed-load row. */
  fixedSeconds: number;
  fixedRate: number;
  /** Rounds of the paced fixed-load rows. */
  fixedRounds: number;
  /** The bare servers, measured at the same paced rate as the trading rows. */
  baselines: { node: Server; express: Server };
}

interface Server {
  url: string;
  /** The process, whose CPU per request the paced rows report. */
  pid: number | undefined;
}

export interface TradingApi extends Server {
  /** Appended to the row names: '' for the one API, ' (metrics on)' for its twin recording metrics. */
  suffix: string;
}

export interface Population {
  label: string;
  keys: string[];
  /** Opens per burst (at most the 1,000-position cap of one book per account). */
  burst: number;
}

export interface Burst {
  ok: number;
  total: number;
  ms: number;
  p50: number;
  p99: number;
}

/**
 * `amount` requests as fast as they are answered. The time is taken from the first request sent to
 * the last response received (autocannon's own start and finish are rounded to its 1 s ticks).
 */
export async function burst(url: string, connections: number, amount: number, request: autocannon.Request): Promise<Burst> {
  let first = 0;
  let last = 0;
  const setup = request.setupRequest as (req: autocannon.Request, context: object) => autocannon.Request;
  const onResponse = request.onResponse as
    ((status: number, body: string, context: object, headers: autocannon.Request['headers']) => void) | undefined;
  const timed: autocannon.Request = {
    ...request,
    setupRequest: (req, context) => {
      if (first === 0) first = performance.now();
      return setup(req, context);
    },
    onResponse: (status, body, context, headers) => {
      last = performance.now();
      onResponse?.(status, body, context, headers);
    },
  };
  const result = await autocannon({ url, connections: Math.min(connections, amount), amount, requests: [timed] });
  return {
    ok: result['2xx'],
    total: result.requests.total,
    ms: Math.max(1, last - first),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

export function summarize(name: string, bursts: Burst[]): Measurement {
  const ms = bursts.reduce((s, b) => s + b.ms, 0);
  const ok = bursts.reduce((s, b) => s + b.ok, 0);
  const total = bursts.reduce((s, b) => s + b.total, 0);
  return {
    name,
    kind: 'route',
    requestsPerSecond: (ok / ms) * 1000,
    p50Ms: median(bursts.map((b) => b.p50)),
    p99Ms: median(bursts.map((b) => b.p99)),
    non2xx: total - ok,
    errors: 0,
  };
}

let n = 0;

/** One saturation burst: `population.burst` opens as fast as they go, then the closes of what they opened. */
export async function openCloseBurst(
  options: Pick<TradingBenchOptions, 'connections'>,
  api: Pick<TradingApi, 'url'>,
  population: Population,
  /** Called between the opens and their closes (the cluster section reads the CPU spent on each). */
  opensDone: () => void = () => undefined,
): Promise<{ open: Burst; close: Burst }> {
  const base = api.url;
  const opened: { key: string; id: string }[] = [];
  const open = await burst(base, options.connections, population.burst, {
    method: 'POST',
    path: '/api/bot/v1/open',
    setupRequest: (req, context) => {
      const i = n++;
      const key = population.keys[i % population.keys.length];
      (context as { key?: string }).key = key;
      const body = {
        symbol: SYMBOLS[i % SYMBOLS.length],
        side: i % 2 ? 'short' : 'long',
        margin_usd: 100,
        leverage: 10,
        client_order_id: `b${i}`,
      };
      return { ...req, headers: headers(key), body: JSON.stringify(body) };
    },
    onResponse: (status, body, context) => {
      if (status === 200)
        opened.push({ key: (context as { key: string }).key, id: (JSON.parse(body) as { position: { id: string } }).position.id });
    },
  });
  opensDone();
  let c = 0;
  const close = await burst(base, options.connections, Math.max(1, opened.length), {
    method: 'POST',
    path: '/api/bot/v1/close',
    setupRequest: (req) => {
      const target = opened[c++ % opened.length] ?? { key: population.keys[0], id: 'none' };
      return { ...req, headers: headers(target.key), body: JSON.stringify({ id: target.id }) };
    },
  });
  return { open, close };
}

/** Fixed offered load, paced: requests alternate an open and the close of an earlier open of the same key. */
function tradingLoad(options: TradingBenchOptions, api: TradingApi, population: Population): PacedOptions {
  const opened: { key: string; id: string }[] = [];
  const keyOf = new Map<number, string>();
  return {
    url: api.url,
    rate: options.fixedRate,
    seconds: options.fixedSeconds,
    connections: options.connections,
    next: (i) => {
      const target = i % 2 === 1 ? opened.shift() : undefined;
      if (target)
        return { path: '/api/bot/v1/close', method: 'POST', headers: headers(target.key), body: JSON.stringify({ id: target.id }) };
      const key = population.keys[n++ % population.keys.length];
      keyOf.set(i, key);
      return {
        path: '/api/bot/v1/open',
        method: 'POST',
        headers: headers(key),
        body: JSON.stringify({ symbol: SYMBOLS[i % SYMBOLS.length], side: 'long', margin_usd: 50, leverage: 5 }),
      };
    },
    onAnswer: (i, status, body) => {
      const key = keyOf.get(i);
      keyOf.delete(i);
      if (key && status === 200) opened.push({ key, id: (JSON.parse(body) as { position: { id: string } }).position.id });
    },
  };
}

/** One paced run, with the CPU the server process spent on it per request sent. */
async function pacedWithCpu(load: PacedOptions, pid: number | undefined): Promise<PacedResult & { cpuUs?: number }> {
  const before = processCpuMs(pid);
  const result = await pacedLoad(load);
  const after = processCpuMs(pid);
  return before === undefined || after === undefined ? result : { ...result, cpuUs: ((after - before) * 1000) / Math.max(1, result.sent) };
}

/**
 * Each row's rounds (rows interleaved round by round, so background load hits them alike), after one
 * unmeasured round of each: the rows follow the saturation bursts, and a process needs a few
 * seconds at the paced rate to settle from them (the heap they grew is collected in that time).
 * p50 and p99 are pooled over every request of the measured rounds, not a median of per-round
 * p99s, which would drop the worst round.
 */
async function pacedRounds(
  rows: { name: string; kind: Measurement['kind']; pid: number | undefined; load: () => PacedOptions }[],
  options: { rounds: number; rate: number },
): Promise<Measurement[]> {
  const results = new Map(rows.map((row) => [row.name, [] as (PacedResult & { cpuUs?: number })[]]));
  for (let round = 0; round <= options.rounds; round += 1) {
    for (const row of rows) {
      const run = await pacedWithCpu(row.load(), row.pid);
      if (round > 0) results.get(row.name)?.push(run);
    }
  }
  return rows.map((row) => {
    const runs = results.get(row.name) ?? [];
    const cpu = runs.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs]));
    const latencies = runs.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
    return {
      name: row.name,
      kind: row.kind,
      requestsPerSecond: median(runs.map((r) => (r.ok / Math.max(1, r.sent)) * options.rate)),
      p50Ms: Math.round(quantile(latencies, 0.5) * 10) / 10,
      p99Ms: Math.round(quantile(latencies, 0.99) * 10) / 10,
      roundP99Ms: runs.map((r) => Math.round(r.p99Ms * 10) / 10),
      non2xx: runs.reduce((sum, r) => sum + r.failed, 0),
      errors: 0,
      ...(cpu.length > 0 ? { serverCpuUsPerRequest: Math.round(median(cpu)) } : {}),
      generatorDelayP99Ms: Math.round(median(runs.map((r) => r.generatorDelayP99Ms)) * 10) / 10,
    };
  });
}

export async function measureTrading(options: TradingBenchOptions): Promise<Measurement[]> {
  const single: Population = { label: '1 account', keys: await createKeys(options.redisUrl, 1, 100), burst: 1000 };
  const many: Population = { label: '1,000 accounts', keys: await createKeys(options.redisUrl, 1000, 1), burst: 4000 };
  const populations = [single, many];
  const pairs = populations.flatMap((population) => options.apis.map((api) => ({ population, api })));
  // bursts of the populations (and of the API processes) alternate, so background load on a shared machine hits them
  // alike; the first round warms the JIT, the connection pools and the scripts' cache
  const bursts = new Map(pairs.map((pair) => [pair, { opens: [] as Burst[], closes: [] as Burst[] }]));
  for (let round = 0; round <= options.bursts; round += 1) {
    for (const pair of pairs) {
      const { open, close } = await openCloseBurst(options, pair.api, pair.population);
      if (round === 0) continue;
      bursts.get(pair)?.opens.push(open);
      bursts.get(pair)?.closes.push(close);
    }
  }
  const rows: Measurement[] = [];
  for (const pair of pairs) {
    const b = bursts.get(pair) ?? { opens: [], closes: [] };
    rows.push(
      summarize(`POST /open, ${pair.population.label} (saturation)${pair.api.suffix}`, b.opens),
      summarize(`POST /close, ${pair.population.label} (saturation)${pair.api.suffix}`, b.closes),
    );
  }
  const rate = options.fixedRate;
  const get = (server: Server): PacedOptions => ({
    url: server.url,
    rate,
    seconds: options.fixedSeconds,
    connections: options.connections,
    next: () => ({ path: '/', method: 'GET' }),
  });
  rows.push(
    ...(await pacedRounds(
      [
        {
          name: `bare node http at ${rate} req/s (paced)`,
          kind: 'baseline',
          pid: options.baselines.node.pid,
          load: () => get(options.baselines.node),
        },
        {
          name: `bare express at ${rate} req/s (paced)`,
          kind: 'baseline',
          pid: options.baselines.express.pid,
          load: () => get(options.baselines.express),
        },
        ...pairs.map(({ population, api }) => ({
          name: `POST /open + /close at ${rate} req/s (paced), ${population.label}${api.suffix}`,
          kind: 'route' as const,
          pid: api.pid,
          load: () => tradingLoad(options, api, population),
        })),
      ],
      { rounds: options.fixedRounds, rate },
    )),
  );
  return rows;
}
