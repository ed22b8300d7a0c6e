import { setFlagsFromString } from 'node:v8';
import type { Config } from './config.js';

/**
 * Applies the configured heap growth (HEAP_GROWING_PERCENT) to this process. V8 reads it at each
 * full collection, so set at start-up it holds from the first one on.
 */
export function applyHeapSettings(config: Pick<Config, 'heapGrowingPercent'>): void {
  if (config.heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
}
