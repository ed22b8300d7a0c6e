/** The resting-order .lua scripts beside this file (place, fill, modify, close). */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const orderScripts = new LuaScripts(import.meta.url, {
  'order-place': { version: 1, numberOfKeys: 3, includes: ['idempotency'] },
  'order-fill': { version: 1, numberOfKeys: 8, includes: ['retire-done-orders'] },
  'order-modify': { version: 1, numberOfKeys: 2 },
  'order-close': { version: 1, numberOfKeys: 6, includes: ['retire-done-orders'] },
});
