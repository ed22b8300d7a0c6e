/**
 * Opens per second at saturation on a Redis Cluster of three masters against one Redis, in the same run on the same
 * machine: one API process on the stack's Redis and one alike on the cluster (each with its own feed on the same sim),
 * the same bursts of opens (then the closes of what they opened) over the same number of accounts, the two alternating
 * burst by burst so background load hits them alike. Beside the rates: the CPU the API process and Redis (every master,
 * summed, on the cluster) spent per open, from /proc.
 */
import { Redis } from 'ioredis';
import { closeRedis, clusterSeeds, createRedis } from '../../shared/redis/connection.js';
import { startClusterRedis } from '../../test/helpers/cluster-redis.js';
import { processCpuMs, type Child, type Measurement } from '../lib/harness.js';
import { createKeys } from '../lib/keys.js';
import { startBenchApi, startBenchFeed, waitForLivePrices, type BenchStack, type RoleEnv } from '../lib/stack.js';
import { redisPid } from './redis-cost.js';
import { openCloseBurst, summarize, type Burst, type Population } from './trading.js';

export interface ClusterBenchOptions {
  connections: number;
  /** Measured bursts per setup, after one warm-up burst each. */
  bursts: number;
  accounts: number;
  /** Opens per burst, spread over the accounts (at most 1,000 per account: a Business book's cap). */
  burst: number;
}

export interface ClusterBenchRow {
  setup: string;
  opens: Measurement;
  closes: Measurement;
  /** Median over the measured bursts of the API process's CPU per open answered 2xx, µs. */
  apiUsPerOpen: number;
  /** The same for Redis: its one server, or every master summed. */
  redisUsPerOpen: number;
}

export interface ClusterBenchSummary {
  accounts: number;
  burst: number;
  bursts: number;
  rows: ClusterBenchRow[];
  /** Opens per second on the cluster over opens per second on one Redis. */
  ratio: number;
}

interface Setup {
  name: string;
  api: Child;
  /** The redis-server processes behind it. */
  redisPids: number[];
  population: Population;
  opens: Burst[];
  closes: Burst[];
  apiUs: number[];
  redisUs: number[];
}

const cpuMs = (pids: (number | undefined)[]): number => pids.reduce((sum: number, pid) => sum + (processCpuMs(pid) ?? NaN), 0);

function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
}

export async function measureCluster(stack: BenchStack, options: ClusterBenchOptions): Promise<ClusterBenchSummary> {
  const cluster = await startClusterRedis(3);
  const children: Child[] = [];
  try {
    const common: RoleEnv = {
      REDIS_URL: cluster.url,
      REDIS_CLUSTER: 'true',
      MARKET_SOURCE: 'sim',
      SIM_URL: stack.sim.url,
      LOG_LEVEL: 'warn',
    };
    children.push(await startBenchFeed(common));
    const clusterApi = await startBenchApi(common);
    children.push(clusterApi);
    await waitForLivePrices(clusterApi.url);
    const nodes = (clusterSeeds(cluster.url) ?? []).map((seed) => new Redis(Number(seed.port), seed.hostname));
    const single = createRedis(stack.redis.url);
    let clusterPids: number[];
    let singlePid: number;
    try {
      clusterPids = await Promise.all(nodes.map(redisPid));
      singlePid = await redisPid(single);
    } finally {
      await closeRedis(single, ...nodes);
    }
    const setup = async (name: string, api: Child, redisUrl: string, redisPids: number[]): Promise<Setup> => ({
      name,
      api,
      redisPids,
      population: { label: name, keys: await createKeys(redisUrl, options.accounts, 1), burst: options.burst },
      opens: [],
      closes: [],
      apiUs: [],
      redisUs: [],
    });
    const setups = [
      await setup('one Redis', stack.api, stack.redis.url, [singlePid]),
      await setup('Redis Cluster, three masters', clusterApi, cluster.url, clusterPids),
    ];
    for (let round = 0; round <= options.bursts; round += 1) {
      for (const s of setups) {
        const before = { api: cpuMs([s.api.process.pid]), redis: cpuMs(s.redisPids) };
        const { open, close } = await openCloseBurst(options, s.api, s.population);
        if (round === 0) continue;
        // the CPU of the opens and of their closes: per open, each open's share of an open and a close
        s.apiUs.push(((cpuMs([s.api.process.pid]) - before.api) * 1000) / Math.max(1, open.ok));
        s.redisUs.push(((cpuMs(s.redisPids) - before.redis) * 1000) / Math.max(1, open.ok));
        s.opens.push(open);
        s.closes.push(close);
      }
    }
    const rows = setups.map((s) => ({
      setup: s.name,
      opens: summarize(`POST /open, ${options.accounts} accounts (saturation), ${s.name}`, s.opens),
      closes: summarize(`POST /close, ${options.accounts} accounts (saturation), ${s.name}`, s.closes),
      apiUsPerOpen: middle(s.apiUs),
      redisUsPerOpen: middle(s.redisUs),
    }));
    return {
      accounts: options.accounts,
      burst: options.burst,
      bursts: options.bursts,
      rows,
      ratio: rows[1].opens.requestsPerSecond / rows[0].opens.requestsPerSecond,
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await cluster.stop();
  }
}

export function clusterTable(summary: ClusterBenchSummary): string {
  return [
    `Opens at saturation, one API process, ${summary.accounts} accounts, bursts of ${summary.burst} opens then their closes, ${summary.bursts} bursts per setup (alternating):`,
    '',
    '| setup | opens/s | open p50 ms | open p99 ms | closes/s | non-2xx | API CPU µs per open+close | Redis CPU µs per open+close |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...summary.rows.map(
      (row) =>
        `| ${row.setup} | ${Math.round(row.opens.requestsPerSecond)} | ${row.opens.p50Ms} | ${row.opens.p99Ms} | ${Math.round(row.closes.requestsPerSecond)} | ${row.opens.non2xx + row.closes.non2xx} | ${row.apiUsPerOpen} | ${row.redisUsPerOpen} |`,
    ),
    '',
    `Cluster / one Redis, opens per second: ${summary.ratio.toFixed(2)}`,
  ].join('\n');
}
