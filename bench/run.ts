import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startEmbeddedRedis } from '../shared/redis/embedded.js';
import { measure, ROOT, startChild, startChildAt, type Measurement, type Target } from './harness.js';

const durationSeconds = Number(process.env.BENCH_DURATION ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const jsonUrl = (line: string): string | undefined => {
  try {
    return (JSON.parse(line) as { url?: string }).url;
  } catch {
    return undefined;
  }
};

function table(rows: Measurement[]): string {
  const node = rows.find((row) => row.name === 'bare node http');
  const express = rows.find((row) => row.name === 'bare express');
  const ratio = (value: number, base: Measurement | undefined): string => (base ? (value / base.requestsPerSecond).toFixed(2) : '-');
  const lines = [
    '| target | req/s | p50 ms | p99 ms | vs bare node | vs bare express | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms} | ${row.p99Ms} | ${ratio(row.requestsPerSecond, node)} | ${ratio(row.requestsPerSecond, express)} | ${row.non2xx + row.errors} |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const redis = await startEmbeddedRedis();
  const apiPort = await freePort();
  const children = [
    await startChild('bench/servers/bare-node.ts', {}, jsonUrl),
    await startChild('bench/servers/bare-express.ts', {}, jsonUrl),
    await startChildAt(
      'workers/main.ts',
      // The limiter stays on and counts every request in Redis; the budget is just too large to trip.
      { ROLE: 'api', PORT: String(apiPort), HOST: '127.0.0.1', REDIS_URL: redis.url, PUBLIC_RATE_LIMIT: '1000000000', LOG_LEVEL: 'warn' },
      `http://127.0.0.1:${apiPort}`,
      '/readyz',
    ),
  ];
  const [node, express, api] = children;
  const targets: Target[] = [
    { name: 'bare node http', url: `${node.url}/`, kind: 'baseline' },
    { name: 'bare express', url: `${express.url}/`, kind: 'baseline' },
    { name: 'GET /api/v1/ping', url: `${api.url}/api/v1/ping`, kind: 'route' },
    { name: 'GET /api/v1/calc/pnl', url: `${api.url}/api/v1/calc/pnl?entry=65000&exit=66300&size=0.5&leverage=10&side=long`, kind: 'route' },
  ];
  const rows: Measurement[] = [];
  try {
    for (const target of targets) {
      const row = await measure(target, { durationSeconds, connections });
      rows.push(row);
      process.stdout.write(`${row.name}: ${Math.round(row.requestsPerSecond)} req/s, p99 ${row.p99Ms} ms\n`);
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await redis.stop();
  }
  const markdown = table(rows);
  process.stdout.write(`\n${markdown}\n`);
  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString();
  writeFileSync(join(resultsDir, 'latest.json'), JSON.stringify({ at: stamp, durationSeconds, connections, rows }, null, 2));
  const readmePath = join(ROOT, 'bench/README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const section = `<!-- bench:start -->\nLatest run: ${stamp}, ${durationSeconds} s per target, ${connections} connections.\n\n${markdown}\n<!-- bench:end -->`;
  writeFileSync(readmePath, readme.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, section));
}

await main();
