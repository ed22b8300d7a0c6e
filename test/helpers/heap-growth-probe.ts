/**
 * Run as a child process: applies HEAP_GROWING_PERCENT as a role does, keeps about 20 MB alive,
 * then promotes short-lived garbage through several full collections, and prints the largest
 * old generation seen (MB) and the full collections counted: how far V8 let it grow past the
 * live set before collecting it.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { configWith } from '../../shared/config.js';
import { applyHeapSettings } from '../../shared/core/heap-settings.js';

applyHeapSettings(configWith({ HEAP_GROWING_PERCENT: process.argv[2] ?? '0' }));
let fullCollections = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullCollections += 1;
});
observer.observe({ entryTypes: ['gc'] });
const oldUsedMb = (): number => (getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0) / 1e6;
const live = Array.from({ length: 250_000 }, (_, i) => ({ i, name: `live-${i}` }));
let churn: { i: number; list: number[] }[] = [];
let peakMb = 0;
for (let round = 0; round < 600; round += 1) {
  for (let i = 0; i < 20_000; i += 1) churn.push({ i, list: [i] });
  if (churn.length > 200_000) churn = [];
  peakMb = Math.max(peakMb, oldUsedMb());
  await new Promise((resolve) => setImmediate(resolve));
}
observer.disconnect();
process.stdout.write(`${JSON.stringify({ peakMb, fullCollections, live: live.length })}\n`);
