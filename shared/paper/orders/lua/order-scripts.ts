/** The resting-order .lua scripts beside this file (place, fill, modify, close). */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const orderScripts = new LuaScripts(import.meta.url, {
  'order-place': { version: 2, numberOfKeys: 5, includes: ['idempotency', 'outbox-appended'] },
  'order-fill': { version: 3, numberOfKeys: 9, includes: ['retire-done-orders', 'outbox-appended'] },
  'order-modify': { version: 1, numberOfKeys: 2 },
  'order-close': { version: 3, numberOfKeys: 7, includes: ['retire-done-orders', 'outbox-appended'] },
});
