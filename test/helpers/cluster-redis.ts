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
import { clusterAddress, closeRedis } from '../../shared/redis/connection.js';
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
      await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    }
    await waitForClusterOk(ports);
    const urls = ports.map((port) => `redis://127.0.0.1:${port}`);
    return { url: masters === 1 ? urls[0] : clusterAddress(urls.join(',')), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
