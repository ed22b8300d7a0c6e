/**
 * A redis-server in cluster mode, one node owning every slot: a plain client reaches every key on
 * it, and the server enforces cluster rules, so a script or command whose keys span two hash slots
 * fails with CROSSSLOT as it would under a real Redis Cluster.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { freePort, waitForReady } from '../../shared/redis/embedded.js';

export interface ClusterRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startClusterRedis(): Promise<ClusterRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pd-cluster-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--cluster-enabled', 'yes', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  await waitForReady(child);
  child.stdout?.resume();
  const admin = createRedis(url);
  try {
    await admin.cluster('ADDSLOTSRANGE', 0, 16383);
    // the node answers cluster_state:ok once it has taken its slots
    while (!(await admin.cluster('INFO')).includes('cluster_state:ok')) await new Promise((resolve) => setTimeout(resolve, 50));
  } catch (error) {
    await stop();
    throw error;
  } finally {
    await closeRedis(admin);
  }
  return { url, stop };
}
