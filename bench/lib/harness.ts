import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readlinkSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Target {
  name: string;
  url: string;
  /** The baseline or our route; ratios are computed against the baselines of the same run. */
  kind: 'baseline' | 'route';
}

export interface Measurement {
  name: string;
  kind: Target['kind'];
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Paced rows: CPU time the server process spent per request (user + system, all its threads), µs. */
  serverCpuUsPerRequest?: number;
  /** Paced rows: each measured round's own p99, ms (the row's p99 is pooled over all of them). */
  roundP99Ms?: number[];
  /** Paced rows: the load generator's own event-loop delay p99, ms (PacedResult.generatorDelayP99Ms). */
  generatorDelayP99Ms?: number;
}

/**
 * CPU time a process has used so far (user + system, all threads), ms, from /proc (Linux; its
 * tick is USER_HZ, 100 per second); undefined where there is no /proc.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export interface Child {
  process: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** The URL of a child's JSON ready line ({"url": ...}), the bench servers' way to say they are up. */
/**
 * The established TCP connections a process holds to each of `ports` (a Redis server's or cluster master's), from /proc:
 * the process's socket inodes, found in /proc/net/tcp and tcp6 with their remote port.
 */
export function connectionsTo(pid: number | undefined, ports: readonly number[]): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (link.startsWith('socket:[')) inodes.add(link.slice(8, -1));
    } catch {
      // closed meanwhile
    }
  }
  const counts = ports.map(() => 0);
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // rem_address is ip:port in hex; st 01 is ESTABLISHED; the inode is the tenth field
      if (fields.length < 10 || fields[3] !== '01' || !inodes.has(fields[9])) continue;
      const at = ports.indexOf(parseInt(fields[2].split(':')[1], 16));
      if (at >= 0) counts[at] += 1;
    }
  }
  return counts;
}

export function jsonUrl(line: string): string | undefined {
  try {
    return (JSON.parse(line) as { url?: string }).url;
  } catch {
    return undefined;
  }
}

/** Starts a server script as a child process and waits for the line that carries its URL. */
export async function startChild(
  script: string,
  env: Record<string, string>,
  urlFromLine: (line: string) => string | undefined,
): Promise<Child> {
  return spawnChild(
    script,
    env,
    ROOT,
    [],
    (child) =>
      new Promise<string>((resolve, reject) => {
        let buffer = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          for (const line of buffer.split('\n')) {
            const found = line.trim() ? urlFromLine(line) : undefined;
            if (found) resolve(found);
          }
          buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
        });
        child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
      }),
  );
}

/**
 * Starts a server on a known URL and waits until its health URL answers. `cwd`: the checkout the script runs from
 * (another commit's, to compare it in the same run); this one by default.
 */
export async function startChildAt(
  script: string,
  env: Record<string, string>,
  url: string,
  healthPath: string,
  cwd = ROOT,
  /** Node options before the script (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs: readonly string[] = [],
): Promise<Child> {
  return spawnChild(script, env, cwd, nodeArgs, async (child) => {
    // tsx compiles the service at start: a minute or more on this 2-core machine when others load it
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
      const up = await fetch(`${url}${healthPath}`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return url;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${script} did not answer ${healthPath} within 120 s`);
  });
}

async function spawnChild(
  script: string,
  env: Record<string, string>,
  cwd: string,
  nodeArgs: readonly string[],
  ready: (child: ChildProcess) => Promise<string>,
): Promise<Child> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await ready(child);
  child.stdout?.resume();
  return {
    process: child,
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export interface MeasureOptions {
  durationSeconds: number;
  connections: number;
  /** Fixed offered load in requests per second; unset = as fast as the server answers. */
  overallRate?: number;
}

export async function measure(target: Target, options: MeasureOptions): Promise<Measurement> {
  const result = await autocannon({
    url: target.url,
    connections: options.connections,
    duration: options.durationSeconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  });
  return {
    name: target.name,
    kind: target.kind,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Measures every target in interleaved rounds (A B C, A B C, ...) after a warm-up, and reports the
 * median of the rounds: on a shared 2-core machine, background load then hits baselines and routes
 * alike instead of skewing whichever target ran during it.
 */
export async function measureRounds(targets: Target[], options: MeasureOptions & { rounds: number }): Promise<Measurement[]> {
  for (const target of targets) await measure(target, { ...options, durationSeconds: 1 });
  const runs = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    for (const target of targets) runs.get(target.name)?.push(await measure(target, options));
  }
  return targets.map((target) => {
    const rows = runs.get(target.name) ?? [];
    return {
      name: target.name,
      kind: target.kind,
      requestsPerSecond: median(rows.map((r) => r.requestsPerSecond)),
      p50Ms: median(rows.map((r) => r.p50Ms)),
      p99Ms: median(rows.map((r) => r.p99Ms)),
      non2xx: rows.reduce((sum, r) => sum + r.non2xx, 0),
      errors: rows.reduce((sum, r) => sum + r.errors, 0),
    };
  });
}
