import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { entryArgs } from './entry-bundle.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Every line printed so far (stdout and stderr). */
  lines: string[];
  /** Resolves with the first log line that satisfies the predicate. */
  waitForLine(predicate: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  exit: Promise<number | null>;
}

/** The service's entry point, and the demo's (the service with its simulated exchange and demo key). */
export const SERVICE_ENTRY = 'workers/main.ts';
export const DEMO_ENTRY = 'ops/demo/main.ts';

/** Runs a real entry point (the service's unless told) as a child process with the given environment. */
export function spawnService(env: Record<string, string>, entry = SERVICE_ENTRY): ServiceProcess {
  return watch(spawn(process.execPath, entryArgs(entry), { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
}

/**
 * Runs `npm run demo`'s script as a terminal would: the leader of its own process group, so a test
 * sends Ctrl-C to the whole group with process.kill(-pid, 'SIGINT').
 */
export function spawnDemo(env: Record<string, string>): ServiceProcess {
  return watch(
    spawn('bash', ['ops/demo.sh'], { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true }),
  );
}

function childEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env };
}

function watch(child: ChildProcess): ServiceProcess {
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  const onChunk = (chunk: Buffer): void => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      lines.push(line);
      for (const listener of listeners) listener(line);
    }
  };
  child.stdout?.on('data', onChunk);
  child.stderr?.on('data', onChunk);
  // 'close', not 'exit': the last lines are read by then
  const exit = once(child, 'close').then(([code]) => code as number | null);
  return {
    child,
    lines,
    exit,
    waitForLine(predicate, timeoutMs = 20_000) {
      const seen = lines.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(new Error(`no matching line within ${timeoutMs} ms; output:\n${lines.join('\n')}`));
        }, timeoutMs);
        const listener = (line: string): void => {
          if (!predicate(line)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          resolve(line);
        };
        listeners.add(listener);
        void exit.then(() => {
          if (!listeners.has(listener)) return;
          clearTimeout(timer);
          listeners.delete(listener);
          reject(new Error(`process exited before a matching line; output:\n${lines.join('\n')}`));
        });
      });
    },
  };
}

/** True once nothing accepts connections at the URL's host and port. */
export function portIsClosed(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

export function apiUrlFrom(line: string): string {
  return (JSON.parse(line) as { url: string }).url;
}

/** A long test's load duration: PERPDESK_CHAOS_LOAD_MS when set (a local run shortens it), else the test's own. */
export function chaosLoadMs(defaultMs: number): number {
  const set = Number(process.env.PERPDESK_CHAOS_LOAD_MS);
  return Number.isFinite(set) && set > 0 ? set : defaultMs;
}
