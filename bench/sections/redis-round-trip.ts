/**
 * A baseline for the trading rows: what one Redis round trip costs this process, on the connection
 * settings of the API role (ioredis without auto-pipelining). A keyed request makes several in a
 * row (key, rate limit, prices, the script); one awaited at a time, each wakes Redis and then this
 * process, which on a virtual machine costs far more than the command itself.
 */
import { createRedis, closeRedis } from '../../shared/redis/connection.js';
import { median } from '../lib/harness.js';

export interface RoundTripRow {
  name: string;
  commands: number;
  wallUs: number;
  cpuUs: number;
}

async function timedCommands(name: string, commands: number, run: () => Promise<void>): Promise<RoundTripRow> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { name, commands, wallUs: ((performance.now() - start) * 1000) / commands, cpuUs: (used.user + used.system) / commands };
}

export async function measureRoundTrips(redisUrl: string, rounds: number): Promise<RoundTripRow[]> {
  const redis = createRedis(redisUrl, { enableAutoPipelining: false });
  const key = 'bench:round-trip';
  try {
    await redis.set(key, 'x'.repeat(100));
    const sequential = 5_000;
    const waves = 1_000;
    const width = 50;
    const runs: RoundTripRow[][] = [];
    for (let round = 0; round < rounds; round += 1) {
      runs.push([
        await timedCommands('one GET in flight (each awaited before the next)', sequential, async () => {
          for (let i = 0; i < sequential; i += 1) await redis.get(key);
        }),
        await timedCommands(`${width} GETs in flight`, waves * width, async () => {
          for (let i = 0; i < waves; i += 1) await Promise.all(Array.from({ length: width }, () => redis.get(key)));
        }),
      ]);
    }
    return runs[0].map((row, i) => ({ ...row, wallUs: median(runs.map((r) => r[i].wallUs)), cpuUs: median(runs.map((r) => r[i].cpuUs)) }));
  } finally {
    await redis.del(key);
    await closeRedis(redis);
  }
}

export function roundTripTable(rows: readonly RoundTripRow[]): string {
  return [
    "| Redis round trip from Node (ioredis, the API role's connection settings) | commands | wall µs per command | client CPU µs per command |",
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${r.commands} | ${r.wallUs.toFixed(1)} | ${r.cpuUs.toFixed(1)} |`),
  ].join('\n');
}
