/**
 * Opens per second at saturation on a Redis Cluster of three masters against one Redis, in the same run on the same
 * machine: one API process on the stack's Redis and one alike on the cluster (each with its own feed on the same sim),
 * the same bursts of opens (then the closes of what they opened) over the same number of accounts, the two alternating
 * burst by burst so background load hits them alike. Beside the rates: the CPU the API process and Redis (every master,
 * summed, on the cluster) spent per open and per close, from /proc. Then, on the cluster only: the memory an account
 * takes (every master's used_memory summed), the connections each process holds per master, and what one webhook job
 * costs the master of the `{bull}` slot (queue-slot.ts): the inputs of docs/CAPACITY.md on the topology it sizes.
 */
import { Redis } from 'ioredis';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis, clusterSeeds, createRedis } from '../../shared/redis/connection.js';
import { startClusterRedis } from '../../test/helpers/cluster-redis.js';
import { connectionsTo, processCpuMs, type Child, type Measurement } from '../lib/harness.js';
import { createKeys } from '../lib/keys.js';
import { startBenchApi, startBenchFeed, waitForLivePrices, type BenchStack, type RoleEnv } from '../lib/stack.js';
import { measureQueueSlot, type QueueSlotCost } from './queue-slot.js';
import { redisPid } from './redis-cost.js';
import { openCloseBurst, summarize, type Burst, type Population } from './trading.js';

export interface ClusterBenchOptions {
  connections: number;
  /** Measured bursts per setup, after one warm-up burst each. */
  bursts: number;
  accounts: number;
  /** Opens per burst, spread over the accounts (at most 1,000 per account: a Business book's cap). */
  burst: number;
  /** Webhook jobs of the `{bull}` slot measurement. */
  jobs: number;
}

export interface ClusterBenchRow {
  setup: string;
  opens: Measurement;
  closes: Measurement;
  /** Median over the measured bursts of the API process's CPU per open answered 2xx, µs; of the opens alone. */
  apiUsPerOpen: number;
  /** The same per close answered 2xx, of the closes alone. */
  apiUsPerClose: number;
  /** The same for Redis: its one server, or every master summed. */
  redisUsPerOpen: number;
  redisUsPerClose: number;
  /** used_memory after creating the accounts (one key each) minus before, per account, bytes. */
  bytesPerAccount: number;
}

export interface ClusterBenchSummary {
  accounts: number;
  burst: number;
  bursts: number;
  rows: ClusterBenchRow[];
  /** Opens per second on the cluster over opens per second on one Redis. */
  ratio: number;
  /** connected_clients each cluster process adds on every master (the same on each: the client connects to all). */
  /** Established connections each cluster process holds to each master (from /proc), after the bursts. */
  connectionsPerMaster: { feed: number[]; api: number[] };
  /** Redis CPU per classic PUBLISH on one master, µs: on the master it is sent to, and on each other master (the bus). */
  broadcast: { sender: number; eachOther: number; messages: number };
  queueSlot: QueueSlotCost;
}

interface Setup {
  name: string;
  api: Child;
  /** The redis-server processes behind it. */
  redisPids: number[];
  population: Population;
  opens: Burst[];
  closes: Burst[];
  cpu: { apiOpen: number[]; apiClose: number[]; redisOpen: number[]; redisClose: number[] };
  bytesPerAccount: number;
}

const cpuMs = (pids: (number | undefined)[]): number => pids.reduce((sum: number, pid) => sum + (processCpuMs(pid) ?? NaN), 0);

const infoField = async (node: RedisClient, section: string, field: string): Promise<number> =>
  Number(new RegExp(`${field}:(\\d+)`).exec(await node.info(section))?.[1]);

/** One figure per master: what each reports for `field` now. */
const perMaster = (nodes: RedisClient[], section: string, field: string): Promise<number[]> =>
  Promise.all(nodes.map((node) => infoField(node, section, field)));

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);

function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
}

/**
 * A classic PUBLISH on a cluster goes to every node over the cluster bus, whoever subscribes: what one costs the master
 * it is sent to and each of the others (no subscriber anywhere, so it is the bus alone), idle subtracted.
 */
async function measureBroadcast(nodes: Redis[], pids: number[], messages: number): Promise<ClusterBenchSummary['broadcast']> {
  const message = 'x'.repeat(800);
  const cpus = (): number[] => pids.map((pid) => processCpuMs(pid) ?? NaN);
  const idleFrom = cpus();
  const idleAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idleMs = performance.now() - idleAt;
  const idlePerMs = cpus().map((cpu, i) => (cpu - idleFrom[i]) / idleMs);
  const from = cpus();
  const at = performance.now();
  for (let i = 0; i < messages; i += 500) {
    const pipeline = nodes[0].pipeline();
    for (let j = 0; j < 500; j += 1) pipeline.publish('bench:broadcast', message);
    await pipeline.exec();
  }
  // the bus delivers after the replies: a moment for the other masters to take theirs
  await new Promise((resolve) => setTimeout(resolve, 500));
  const ms = performance.now() - at;
  const per = cpus().map((cpu, i) => Math.round(((cpu - from[i] - idlePerMs[i] * ms) * 1000) / messages));
  return { sender: per[0], eachOther: Math.round(sum(per.slice(1)) / Math.max(1, per.length - 1)), messages };
}

export async function measureCluster(stack: BenchStack, options: ClusterBenchOptions): Promise<ClusterBenchSummary> {
  const cluster = await startClusterRedis(3);
  const children: Child[] = [];
  const nodes = (clusterSeeds(cluster.url) ?? []).map((seed) => new Redis(Number(seed.port), seed.hostname));
  const single = createRedis(stack.redis.url);
  try {
    const common: RoleEnv = {
      REDIS_URL: cluster.url,
      REDIS_CLUSTER: 'true',
      MARKET_SOURCE: 'sim',
      SIM_URL: stack.sim.url,
      LOG_LEVEL: 'warn',
    };
    const feed = await startBenchFeed(common);
    children.push(feed);
    const clusterApi = await startBenchApi(common);
    children.push(clusterApi);
    await waitForLivePrices(clusterApi.url);
    const clusterPids = await Promise.all(nodes.map(redisPid));
    const singlePid = await redisPid(single);
    const setup = async (name: string, api: Child, redisUrl: string, redisPids: number[], masters: RedisClient[]): Promise<Setup> => {
      const memory = async (): Promise<number> => sum(await perMaster(masters, 'memory', 'used_memory'));
      const before = await memory();
      const keys = await createKeys(redisUrl, options.accounts, 1);
      return {
        name,
        api,
        redisPids,
        population: { label: name, keys, burst: options.burst },
        opens: [],
        closes: [],
        cpu: { apiOpen: [], apiClose: [], redisOpen: [], redisClose: [] },
        bytesPerAccount: Math.round(((await memory()) - before) / options.accounts),
      };
    };
    const setups = [
      await setup('one Redis', stack.api, stack.redis.url, [singlePid], [single]),
      await setup('Redis Cluster, three masters', clusterApi, cluster.url, clusterPids, nodes),
    ];
    for (let round = 0; round <= options.bursts; round += 1) {
      for (const s of setups) {
        const read = (): { api: number; redis: number } => ({ api: cpuMs([s.api.process.pid]), redis: cpuMs(s.redisPids) });
        const before = read();
        let between = before;
        const { open, close } = await openCloseBurst(options, s.api, s.population, () => (between = read()));
        const after = read();
        if (round === 0) continue;
        const per = (ms: number, n: number): number => (ms * 1000) / Math.max(1, n);
        s.cpu.apiOpen.push(per(between.api - before.api, open.ok));
        s.cpu.redisOpen.push(per(between.redis - before.redis, open.ok));
        s.cpu.apiClose.push(per(after.api - between.api, close.ok));
        s.cpu.redisClose.push(per(after.redis - between.redis, close.ok));
        s.opens.push(open);
        s.closes.push(close);
      }
    }
    const rows = setups.map((s) => ({
      setup: s.name,
      opens: summarize(`POST /open, ${options.accounts} accounts (saturation), ${s.name}`, s.opens),
      closes: summarize(`POST /close, ${options.accounts} accounts (saturation), ${s.name}`, s.closes),
      apiUsPerOpen: middle(s.cpu.apiOpen),
      apiUsPerClose: middle(s.cpu.apiClose),
      redisUsPerOpen: middle(s.cpu.redisOpen),
      redisUsPerClose: middle(s.cpu.redisClose),
      bytesPerAccount: s.bytesPerAccount,
    }));
    const ports = nodes.map((node) => Number(node.options.port));
    const connectionsPerMaster = { feed: connectionsTo(feed.process.pid, ports), api: connectionsTo(clusterApi.process.pid, ports) };
    const broadcast = await measureBroadcast(nodes, clusterPids, 20_000);
    const queueSlot = await measureQueueSlot(cluster.url, nodes, options.jobs);
    return {
      accounts: options.accounts,
      burst: options.burst,
      bursts: options.bursts,
      rows,
      ratio: rows[1].opens.requestsPerSecond / rows[0].opens.requestsPerSecond,
      connectionsPerMaster,
      broadcast,
      queueSlot,
    };
  } finally {
    await closeRedis(single, ...nodes);
    await Promise.all(children.map((child) => child.stop()));
    await cluster.stop();
  }
}

export function clusterTable(summary: ClusterBenchSummary): string {
  return [
    `Opens at saturation, one API process, ${summary.accounts} accounts, bursts of ${summary.burst} opens then their closes, ${summary.bursts} bursts per setup (alternating):`,
    '',
    '| setup | opens/s | open p50 ms | open p99 ms | closes/s | non-2xx | API CPU µs per open / close | Redis CPU µs per open / close | bytes per account |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...summary.rows.map(
      (row) =>
        `| ${row.setup} | ${Math.round(row.opens.requestsPerSecond)} | ${row.opens.p50Ms} | ${row.opens.p99Ms} | ${Math.round(row.closes.requestsPerSecond)} | ${row.opens.non2xx + row.closes.non2xx} | ${row.apiUsPerOpen} / ${row.apiUsPerClose} | ${row.redisUsPerOpen} / ${row.redisUsPerClose} | ${row.bytesPerAccount} |`,
    ),
    '',
    `Cluster / one Redis, opens per second: ${summary.ratio.toFixed(2)}`,
    `Connections to each master: feed process ${summary.connectionsPerMaster.feed.join(', ')}; API process ${summary.connectionsPerMaster.api.join(', ')}`,
    `Classic PUBLISH of an event-sized message (${summary.broadcast.messages}): Redis CPU µs ${summary.broadcast.sender} on the master it is sent to, ${summary.broadcast.eachOther} on each other master`,
    `Webhook jobs on the {bull} slot: ${summary.queueSlot.jobs} in ${summary.queueSlot.ms} ms; Redis CPU µs per job: ${summary.queueSlot.bullMasterUsPerJob} on its master, ${summary.queueSlot.allMastersUsPerJob} all masters summed; ${summary.queueSlot.bytesPerKeptJob} bytes per completed job kept`,
  ].join('\n');
}
