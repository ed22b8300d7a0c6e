/**
 * Redis servers in cluster mode for the suite. One node owning every slot (`npm run test:cluster`): a plain client
 * reaches every key on it, and the server enforces cluster rules, so a script or command whose keys span two hash slots
 * fails with CROSSSLOT as it would under a real Redis Cluster. Three masters (`npm run test:cluster3`): the slots
 * spread over three servers joined by `redis-cli --cluster create`, reached through ioredis's Cluster client (the
 * address is a `cluster:` one), so MOVED and ASK redirections, per-node SCAN and script caches, and pub/sub across
 * nodes are exercised too. A test that needs a failover starts a three-master cluster of its own and adds a replica to
 * it (addReplica, failOver).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { Redis } from 'ioredis';
import { clusterAddress, clusterSeeds, closeRedis } from '../../shared/redis/connection.js';
import { freePort, waitForReady } from '../../shared/redis/embedded.js';
import { waitFor } from './market-wait.js';

const run = promisify(execFile);

export interface ClusterRedis {
  /** The address every client of the suite is given: a plain URL (one node) or a `cluster:` address (three masters). */
  url: string;
  /** Stops every node, the replicas added too. */
  stop(): Promise<void>;
  /**
   * Adds a replica of the master serving `slot` as an operator would (`redis-cli --cluster add-node NEW ANY
   * --cluster-slave --cluster-master-id ID`) and answers once it is in sync and every node knows it.
   */
  addReplica(slot: number): Promise<ClusterReplica>;
  /**
   * The cluster's own manual failover, as an operator runs it: `redis-cli -p REPLICA cluster failover`. The master
   * stops taking writes, the replica catches up with its replication stream and is voted master, the old master turns
   * into its replica. `promotedAt`: when the replica said it was master (ROLE) and every node gave it the slot. Answers
   * once the old master is an in-sync replica of the new one that every node knows: `replica` (fail over to it to move
   * back, once: a master does not vote twice for the replicas of one master within twice cluster-node-timeout, 30 s).
   */
  failOver(replica: ClusterReplica): Promise<{ replica: ClusterReplica; promotedAt: number }>;
}

export interface ClusterReplica {
  port: number;
  /** The port of the master it replicates. */
  masterPort: number;
  /** The slot it was added for (its master serves it). */
  slot: number;
}

interface ClusterNode {
  port: number;
  stop(): Promise<void>;
}

async function startNode(): Promise<ClusterNode> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pd-cluster-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--cluster-enabled', 'yes', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  // a test process that exits without stop() (the suite's workers keep their Redis to the end) takes its nodes along
  const killOnExit = (): void => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForReady(child);
  } catch (error) {
    await stop();
    throw error;
  }
  child.stdout?.resume();
  return { port, stop };
}

/** Waits until every node answers cluster_state:ok (each has heard of every slot's owner). */
async function waitForClusterOk(ports: readonly number[]): Promise<void> {
  const admins = ports.map((port) => new Redis(port, '127.0.0.1', { lazyConnect: false }));
  try {
    for (;;) {
      const states = await Promise.all(admins.map((admin) => admin.cluster('INFO')));
      if (states.every((info) => info.includes('cluster_state:ok'))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await closeRedis(...admins);
  }
}

/** Starts `masters` nodes and gives them every slot: one node takes them all, more are joined by redis-cli. */
export async function startClusterRedis(masters: 1 | 3 = 1): Promise<ClusterRedis> {
  const nodes: ClusterNode[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    for (let i = 0; i < masters; i++) nodes.push(await startNode());
    const ports = nodes.map((node) => node.port);
    if (masters === 1) {
      const admin = new Redis(ports[0], '127.0.0.1');
      try {
        await admin.cluster('ADDSLOTSRANGE', 0, 16383);
      } finally {
        await closeRedis(admin);
      }
    } else {
      await run('redis-cli', [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ]);
    }
    await waitForClusterOk(ports);
    const urls = ports.map((port) => `redis://127.0.0.1:${port}`);
    const allPorts = (): number[] => nodes.map((node) => node.port);
    const addReplica = async (slot: number): Promise<ClusterReplica> => {
      const node = await startNode();
      nodes.push(node);
      const admin = new Redis(ports[0], '127.0.0.1');
      let master: NodeLine;
      try {
        master = ownerOf(await clusterMasters(admin), slot);
      } finally {
        await closeRedis(admin);
      }
      await run('redis-cli', [
        '--cluster',
        'add-node',
        `127.0.0.1:${node.port}`,
        `127.0.0.1:${ports[0]}`,
        '--cluster-slave',
        '--cluster-master-id',
        master.id,
      ]);
      await untilReplicaReady(allPorts(), node.port, master.port);
      return { port: node.port, masterPort: master.port, slot };
    };
    const failOver = async (replica: ClusterReplica): Promise<{ replica: ClusterReplica; promotedAt: number }> => {
      await run('redis-cli', ['-p', String(replica.port), 'cluster', 'failover']);
      // each node's own ROLE, and every node's slot table (what a client's MOVED and CLUSTER SLOTS come from)
      await untilEveryNode(
        allPorts(),
        async (view, admin) => {
          const self = view.find((line) => line.flags.includes('myself'));
          const roles = { [replica.port]: 'master', [replica.masterPort]: 'slave' };
          const expected = self ? roles[self.port] : undefined;
          if (expected && ((await admin.call('ROLE')) as [string])[0] !== expected) return false;
          const promoted = view.find((line) => line.port === replica.port);
          return !!promoted?.flags.includes('master') && serves(promoted, replica.slot);
        },
        `the replica on ${replica.port} master of slot ${replica.slot} on every node`,
      );
      const promotedAt = Date.now();
      // the old master a replica in sync that every node knows (by gossip, seconds later): ready for the next failover
      await untilReplicaReady(allPorts(), replica.masterPort, replica.port);
      return { replica: { port: replica.masterPort, masterPort: replica.port, slot: replica.slot }, promotedAt };
    };
    return { url: masters === 1 ? urls[0] : clusterAddress(urls.join(',')), stop, addReplica, failOver };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface NodeLine {
  id: string;
  port: number;
  flags: string[];
  /** The id of the master it replicates; '-' for a master. */
  masterId: string;
  /** The slot ranges it serves ('0-5460', '7000'). */
  slots: string[];
}

/** Every node of a running cluster as `admin`'s node sees it (CLUSTER NODES): id, port, role, master, slots. */
async function clusterNodes(admin: Redis): Promise<NodeLine[]> {
  return String(await admin.cluster('NODES'))
    .trim()
    .split('\n')
    .map((line) => line.split(' '))
    .map((fields) => ({
      id: fields[0],
      port: Number(fields[1].split('@')[0].split(':').pop()),
      flags: fields[2].split(','),
      masterId: fields[3],
      slots: fields.slice(8),
    }));
}

/** The masters of a running cluster, from CLUSTER NODES on a seed. */
async function clusterMasters(admin: Redis): Promise<NodeLine[]> {
  return (await clusterNodes(admin)).filter((node) => node.flags.includes('master'));
}

const serves = (node: NodeLine, slot: number): boolean =>
  node.slots.some((range) => {
    const [low, high = low] = range.split('-').map(Number);
    return slot >= low && slot <= high;
  });

/** The master serving `slot`. */
function ownerOf(masters: NodeLine[], slot: number): NodeLine {
  const owner = masters.find((m) => serves(m, slot));
  if (!owner) throw new Error(`no master serves slot ${slot}`);
  return owner;
}

/**
 * Waits until the replica on `port` is in sync with its master (its data loaded, the stream followed, the master
 * counting it online) and every node lists it as that master's replica: the masters vote only for a replica they know.
 */
async function untilReplicaReady(allPorts: readonly number[], port: number, masterPort: number): Promise<void> {
  await untilEveryNode(
    allPorts,
    async (view, admin) => {
      const self = view.find((line) => line.flags.includes('myself'));
      const info = self?.port === port || self?.port === masterPort ? await admin.info('replication') : '';
      if (self?.port === port && !(info.includes('master_link_status:up') && info.includes('master_sync_in_progress:0'))) return false;
      if (self?.port === masterPort && !/slave\d+:[^\n]*state=online/.test(info)) return false;
      const masterId = view.find((line) => line.port === masterPort)?.id;
      return view.some((line) => line.port === port && line.flags.includes('slave') && line.masterId === masterId);
    },
    `the replica on ${port} in sync with ${masterPort} and known to every node`,
  );
}

/** Polls every node's CLUSTER NODES (and the nodes themselves) until `agreed` holds on all of them, within 20 s. */
async function untilEveryNode(
  ports: readonly number[],
  agreed: (view: NodeLine[], admin: Redis) => Promise<boolean> | boolean,
  what: string,
): Promise<void> {
  const admins = ports.map((port) => new Redis(port, '127.0.0.1'));
  try {
    await waitFor(
      async () => {
        const views = await Promise.all(admins.map(async (admin) => agreed(await clusterNodes(admin), admin)));
        return views.every(Boolean);
      },
      20_000,
      what,
    );
  } finally {
    await closeRedis(...admins);
  }
}

/**
 * Moves one hash slot to another master as `redis-cli --cluster reshard` does, in the open so a test can trade on it
 * meanwhile: the target IMPORTING and the source MIGRATING the slot, its keys sent `batch` at a time with MIGRATE,
 * `pauseMs` apart (the slot's keys are split between the two nodes all that time: a command on missing keys is
 * redirected with ASK, a script over keys on both answers TRYAGAIN), then every node told the new owner. Answers the
 * ports of the source and the target and how many keys moved.
 */
export async function moveSlot(
  address: string,
  slot: number,
  options: { batch: number; pauseMs: number },
): Promise<{ from: number; to: number; keys: number }> {
  const seed = new URL(clusterSeeds(address)?.[0] ?? address);
  const seedAdmin = new Redis(Number(seed.port), seed.hostname);
  const admins = new Map<number, Redis>();
  try {
    const masters = await clusterMasters(seedAdmin);
    const source = ownerOf(masters, slot);
    const target = masters.find((m) => m !== source);
    if (!target) throw new Error(`no master other than slot ${slot}'s`);
    const admin = (port: number): Redis => {
      let client = admins.get(port);
      if (!client) admins.set(port, (client = new Redis(port, '127.0.0.1')));
      return client;
    };
    await admin(target.port).cluster('SETSLOT', slot, 'IMPORTING', source.id);
    await admin(source.port).cluster('SETSLOT', slot, 'MIGRATING', target.id);
    let moved = 0;
    for (;;) {
      const batch = (await admin(source.port).cluster('GETKEYSINSLOT', slot, options.batch)) as string[];
      if (batch.length === 0) break;
      await admin(source.port).migrate('127.0.0.1', target.port, '', 0, 5000, 'KEYS', ...batch);
      moved += batch.length;
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
    // the target first, so the slot is never owned by nobody; then every other node learns it (as redis-cli does)
    await admin(target.port).cluster('SETSLOT', slot, 'NODE', target.id);
    await admin(source.port).cluster('SETSLOT', slot, 'NODE', target.id);
    for (const other of masters.filter((m) => m !== source && m !== target))
      await admin(other.port).cluster('SETSLOT', slot, 'NODE', target.id);
    return { from: source.port, to: target.port, keys: moved };
  } finally {
    await closeRedis(seedAdmin, ...admins.values());
  }
}
