/**
 * Redis servers in cluster mode for the suite. One node owning every slot (`npm run test:cluster`): a plain client
 * reaches every key on it, and the server enforces cluster rules, so a script or command whose keys span two hash slots
 * fails with CROSSSLOT as it would under a real Redis Cluster. Three masters (`npm run test:cluster3`): the slots
 * spread over three servers joined by `redis-cli --cluster create`, reached through ioredis's Cluster client (the
 * address is a `cluster:` one), so MOVED and ASK redirections, per-node SCAN and script caches, and pub/sub across
 * nodes are exercised too.
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

const run = promisify(execFile);

export interface ClusterRedis {
  /** The address every client of the suite is given: a plain URL (one node) or a `cluster:` address (three masters). */
  url: string;
  stop(): Promise<void>;
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
    return { url: masters === 1 ? urls[0] : clusterAddress(urls.join(',')), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The masters of a running cluster, from CLUSTER NODES on a seed: id, port and the slots each serves. */
async function clusterMasters(admin: Redis): Promise<{ id: string; port: number; slots: string[] }[]> {
  const lines = String(await admin.cluster('NODES'))
    .trim()
    .split('\n');
  return lines
    .map((line) => line.split(' '))
    .filter((fields) => fields[2].includes('master'))
    .map((fields) => ({ id: fields[0], port: Number(fields[1].split('@')[0].split(':').pop()), slots: fields.slice(8) }));
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
    const owns = (slots: string[]): boolean =>
      slots.some((range) => {
        const [low, high = low] = range.split('-').map(Number);
        return slot >= low && slot <= high;
      });
    const source = masters.find((m) => owns(m.slots));
    const target = masters.find((m) => m !== source);
    if (!source || !target) throw new Error(`no owner of slot ${slot}, or no other master`);
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
