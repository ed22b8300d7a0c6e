/**
 * The position .lua scripts beside this file (open, close, levels, increase, reset, the trigger ranges the sweep reads, the
 * retention's prune).
 */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const positionScripts = new LuaScripts(import.meta.url, {
  'position-open': { version: 4, numberOfKeys: 7, includes: ['idempotency', 'outbox-appended'] },
  'position-close': { version: 5, numberOfKeys: 10, includes: ['outbox-appended'] },
  'position-sltp': { version: 3, numberOfKeys: 3, includes: ['outbox-appended'] },
  'position-increase': { version: 1, numberOfKeys: 5, includes: ['outbox-appended'] },
  'book-reset': { version: 4, numberOfKeys: 17, includes: ['retire-done-orders', 'outbox-appended'] },
  'trigger-ranges': { version: 1, numberOfKeys: 8 },
  'trades-prune': { version: 1, numberOfKeys: 8 },
  'trades-prune-due': { version: 1, numberOfKeys: 0 },
});
