/**
 * Realism: market opens per second with the `realistic` simulation preset (slippage, impact from the
 * majors' real order books, partial fills, margin tiers) against the default profile, in the same
 * run: saturation bursts of 1,000 opens (then their closes) on two accounts, one per profile,
 * alternating so background load hits both alike; the first round of each warms up.
 */
import type { Measurement } from '../lib/harness.js';
import { createKeys, keyHeaders } from '../lib/keys.js';
import { openCloseBurst, summarize, type Burst, type Population } from './trading.js';

export interface RealismBenchOptions {
  redisUrl: string;
  apiUrl: string;
  connections: number;
  bursts: number;
}

export interface RealismSummary {
  rows: Measurement[];
  /** Realistic opens per second over default ones. */
  ratio: number;
}

async function setPreset(apiUrl: string, key: string, preset: string): Promise<void> {
  const r = await fetch(`${apiUrl}/api/bot/v1/sim`, {
    method: 'POST',
    headers: keyHeaders(key),
    body: JSON.stringify({ preset }),
  });
  if (r.status !== 200) throw new Error(`bench realism: POST /sim ${preset} answered ${r.status}`);
}

export async function measureRealism(options: RealismBenchOptions): Promise<RealismSummary> {
  const plain: Population = { label: 'default profile', keys: await createKeys(options.redisUrl, 1, 100), burst: 1000 };
  const realistic: Population = { label: 'realistic preset', keys: await createKeys(options.redisUrl, 1, 100), burst: 1000 };
  await setPreset(options.apiUrl, realistic.keys[0], 'realistic');
  const opens = new Map<Population, Burst[]>([
    [plain, []],
    [realistic, []],
  ]);
  for (let round = 0; round <= options.bursts; round += 1) {
    for (const population of [plain, realistic]) {
      const { open } = await openCloseBurst(options, { url: options.apiUrl }, population);
      if (round > 0) opens.get(population)?.push(open);
    }
  }
  const rows = [plain, realistic].map((p) => summarize(`POST /open, ${p.label} (saturation)`, opens.get(p) ?? []));
  return { rows, ratio: rows[1].requestsPerSecond / rows[0].requestsPerSecond };
}

export function realismTable(summary: RealismSummary): string {
  return [
    '| realism | opens/s | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...summary.rows.map((r) => `| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} |`),
    `| realistic / default | ${summary.ratio.toFixed(2)} | | | |`,
  ].join('\n');
}
