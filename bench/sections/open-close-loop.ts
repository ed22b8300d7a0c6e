/**
 * Open + close in a loop against bare Express (issue 39's measure): each connection opens a position and closes it,
 * again and again, with keys of one Business account, through one API process; bare Express 5 with express.json()
 * answers the same POSTs in the same interleaved rounds. Reported: requests per second and the server process's CPU
 * per request (user + system from /proc, over every request of the round), each with its ratio to bare Express taken
 * round by round (a round's background load hits both alike) and the median of those ratios.
 */
import autocannon from 'autocannon';
import { median, processCpuMs } from '../lib/harness.js';
import { createKeys, keyHeaders } from '../lib/keys.js';

export interface LoopOptions {
  redisUrl: string;
  api: { url: string; pid: number | undefined };
  bareExpress: { url: string; pid: number | undefined };
  /** An API process from another tree (BENCH_BASELINE_TREE), looped in the same interleaved rounds. */
  baseline?: { url: string; pid: number | undefined };
  connections: number;
  keys: number;
  seconds: number;
  rounds: number;
}

interface LoopRun {
  rps: number;
  cpuUs: number;
  non2xx: number;
  p99Ms: number;
}

export interface LoopRow {
  name: string;
  rps: number;
  cpuUs: number;
  p99Ms: number;
  non2xx: number;
  /** Per round, this row over bare Express; undefined on the baseline. */
  rpsRatio?: number;
  cpuRatio?: number;
}

let sequence = 0;

/** One round: every connection loops open then close of what it opened, for `seconds`. */
async function loop(server: LoopOptions['api'], keys: readonly string[], connections: number, seconds: number): Promise<LoopRun> {
  const before = processCpuMs(server.pid);
  const started = performance.now();
  const result = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/bot/v1/open',
        setupRequest: (req, context: { key?: string }) => {
          const i = sequence++;
          context.key = keys[i % keys.length];
          const body = { symbol: 'BTC', side: i % 2 ? 'short' : 'long', margin_usd: 50, leverage: 5, client_order_id: `l${i}` };
          return { ...req, headers: keyHeaders(context.key), body: JSON.stringify(body) };
        },
        onResponse: (status, body, context: { id?: string }) => {
          context.id = status === 200 ? (JSON.parse(body) as { position: { id: string } }).position.id : 'none';
        },
      },
      {
        method: 'POST',
        path: '/api/bot/v1/close',
        setupRequest: (req, context: { key?: string; id?: string }) => ({
          ...req,
          headers: keyHeaders(context.key ?? keys[0]),
          body: JSON.stringify({ id: context.id ?? 'none' }),
        }),
      },
    ],
  });
  const ms = performance.now() - started;
  const after = processCpuMs(server.pid);
  const total = Math.max(1, result.requests.total);
  return {
    rps: (result['2xx'] / ms) * 1000,
    cpuUs: before === undefined || after === undefined ? NaN : ((after - before) * 1000) / total,
    non2xx: result.non2xx + result.errors,
    p99Ms: result.latency.p99,
  };
}

export async function measureOpenCloseLoop(options: LoopOptions): Promise<LoopRow[]> {
  const keys = await createKeys(options.redisUrl, 1, options.keys);
  const { connections, seconds } = options;
  const targets = [options.bareExpress, options.api, ...(options.baseline ? [options.baseline] : [])];
  // a warm-up round each: the JIT, the connection pools and the scripts' cache
  for (const target of targets) await loop(target, keys, connections, 2);
  const runs: LoopRun[][] = targets.map(() => []);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [i, target] of targets.entries()) runs[i].push(await loop(target, keys, connections, seconds));
  }
  const row = (name: string, own: LoopRun[], base?: LoopRun[]): LoopRow => ({
    name,
    rps: median(own.map((r) => r.rps)),
    cpuUs: median(own.map((r) => r.cpuUs)),
    p99Ms: median(own.map((r) => r.p99Ms)),
    non2xx: own.reduce((sum, r) => sum + r.non2xx, 0),
    ...(base
      ? {
          rpsRatio: median(own.map((r, i) => r.rps / base[i].rps)),
          cpuRatio: median(own.map((r, i) => r.cpuUs / base[i].cpuUs)),
        }
      : {}),
  });
  return [
    row('bare express, POST open + close (express.json())', runs[0]),
    row(`POST /open + /close loop, 1 account, ${options.keys} keys`, runs[1], runs[0]),
    ...(options.baseline ? [row(`the same loop on the baseline tree`, runs[2], runs[0])] : []),
  ];
}

export function openCloseLoopTable(rows: readonly LoopRow[], connections: number): string {
  return [
    `| open + close loop (${connections} connections; ratios: median of the rounds' own) | req/s | p99 ms | server CPU µs/req | ` +
      'req/s vs bare express | CPU/req vs bare express | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${Math.round(r.rps)} | ${r.p99Ms} | ${Math.round(r.cpuUs)} | ${r.rpsRatio?.toFixed(2) ?? '1.00'} | ` +
        `${r.cpuRatio?.toFixed(2) ?? '1.00'} | ${r.non2xx} |`,
    ),
  ].join('\n');
}
