import { setFlagsFromString } from 'node:v8';
import type { LifecycleSettings } from './process-settings.js';

/**
 * Applies the configured heap settings (HEAP_GROWING_PERCENT, HEAP_PRETENURING) to this process.
 * V8 reads both at each collection, so set at start-up they hold from the first one on.
 */
export function applyHeapSettings(config: Pick<LifecycleSettings, 'heapGrowingPercent' | 'heapPretenuring'>): void {
  if (config.heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  setFlagsFromString(config.heapPretenuring ? '--allocation-site-pretenuring' : '--no-allocation-site-pretenuring');
}
