/** The position .lua scripts beside this file (open, close, levels, reset, the trigger ranges the sweep reads). */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const positionScripts = new LuaScripts(import.meta.url, {
  'position-open': { version: 2, numberOfKeys: 6, includes: ['idempotency'] },
  'position-close': { version: 2, numberOfKeys: 8 },
  'position-sltp': { version: 1, numberOfKeys: 2 },
  'book-reset': { version: 2, numberOfKeys: 16, includes: ['retire-done-orders'] },
  'trigger-ranges': { version: 1, numberOfKeys: 8 },
});
