/**
 * Run as a child process: applies HEAP_PRETENURING as a role does, makes 400,000 objects at one
 * place in the code and keeps them (so V8 may decide to make that place's objects in the old
 * generation from then on), then makes 4,000,000 more there that die at once, and prints how many
 * MB the old generation gained during the last 3,000,000.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { configWith } from '../../shared/config.js';
import { applyHeapSettings } from '../../shared/core/heap-settings.js';

applyHeapSettings(configWith({ HEAP_PRETENURING: process.argv[2] ?? '0' }));
const oldUsedMb = (): number => (getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0) / 1e6;
const make = (i: number): { i: number; list: number[] } => ({ i, list: [i, i + 1] });
const kept: { i: number; list: number[] }[] = [];
for (let i = 0; i < 400_000; i += 1) kept.push(make(i));
await new Promise((resolve) => setImmediate(resolve));
let gainedMb = 0;
let made = 0;
for (let round = 0; round < 200; round += 1) {
  const before = oldUsedMb();
  for (let i = 0; i < 20_000; i += 1) made += make(i).list.length / 2;
  // from the 50th round: by then the kept objects have reached the old generation the usual way
  if (round >= 50) gainedMb += Math.max(0, oldUsedMb() - before);
  await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(`${JSON.stringify({ gainedMb, made, kept: kept.length })}\n`);
