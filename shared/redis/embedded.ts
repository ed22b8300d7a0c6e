import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { aptInstall, onPath } from '../core/apt-install.js';
import type { AppendFsync } from './redis-settings.js';
import type { Logger } from '../core/logger.js';

export interface EmbeddedRedis {
  url: string;
  /** Where its append-only file is (absolute), undefined when nothing is kept on disk. */
  dataDir?: string;
  stop(): Promise<void>;
}

export interface EmbeddedRedisOptions {
  /** Directory for the append-only file; undefined keeps nothing on disk (tests). */
  dataDir?: string;
  logger?: Logger;
  /** A port to listen on (a restart on the port clients know); undefined picks a free one. */
  port?: number;
  /** The append-only file's sync with a dataDir: 'everysec' by default (Config.redisAppendFsync says what each loses). */
  appendFsync?: AppendFsync;
}

export class RedisMissingError extends Error {}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Makes sure redis-server exists: installs it with apt-get when we are root, otherwise explains how. */
export function ensureRedisServer(logger?: Logger): void {
  if (aptInstall('redis-server', () => onPath('redis-server'), logger)) return;
  throw new RedisMissingError(
    'redis-server not found: install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL',
  );
}

/** Resolves once a redis-server child (stdout piped) says it accepts connections; rejects if it exits first. */
export function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolveReady, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolveReady();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)));
  });
}

/** Starts a private redis-server on a free loopback port, stopped with the service. */
export async function startEmbeddedRedis(options: EmbeddedRedisOptions = {}): Promise<EmbeddedRedis> {
  ensureRedisServer(options.logger);
  const port = options.port ?? (await freePort());
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--protected-mode', 'yes'];
  const dir = options.dataDir ? resolve(options.dataDir) : undefined;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    args.push('--dir', dir, '--appendonly', 'yes', '--appendfsync', options.appendFsync ?? 'everysec');
  } else {
    args.push('--appendonly', 'no');
  }
  // Its own process group: a terminal's Ctrl-C (SIGINT to the foreground group) reaches the service
  // only, which stops its roles while Redis still answers and stops Redis last.
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // a service that exits without stop() (a missed shutdown deadline, a crash) still takes its Redis along
  const killOnExit = (): void => void child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  await waitForReady(child);
  const url = `redis://127.0.0.1:${port}`;
  options.logger?.info({ port, url, pid: child.pid, dataDir: dir ?? null }, 'private redis-server started');
  return {
    url,
    dataDir: dir,
    stop: () =>
      new Promise<void>((resolveStop) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        child.kill('SIGTERM');
      }),
  };
}
