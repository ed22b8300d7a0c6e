/**
 * The soak's table from a samples file (BENCH_SOAK_SAMPLES, one JSON line per window), up to a given second: a long
 * soak read while it runs, or its first 30 minutes read apart.
 *   npx tsx bench/soak-report.ts <samples.jsonl> [up to seconds] [warm-up seconds]
 */
import { readFileSync } from 'node:fs';
import { soakTable, summarizeSoak, type SoakSample } from './sections/soak.js';

const [file, upTo = 'Infinity', warmUp = '360'] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/soak-report.ts <samples.jsonl> [up to seconds] [warm-up seconds]');
const samples = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as SoakSample)
  .filter((sample) => sample.atSeconds <= Number(upTo));
const failed = samples.reduce((sum, s) => sum + s.failed, 0);
const seconds = samples.at(-1)?.atSeconds ?? 0;
const options = {
  rate: Number(process.env.BENCH_SOAK_RATE ?? 300),
  seconds,
  warmUpSeconds: Number(warmUp),
  windowSeconds: 10,
  accounts: 200,
};
const summary = summarizeSoak({ ...options, samplesFile: file }, samples, Number.NaN, failed);
process.stdout.write(`${soakTable(summary)}\n`);
