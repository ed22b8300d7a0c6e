/** The account .lua scripts beside this file (keys, plans, the key gate and usage counts). */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const accountScripts = new LuaScripts(import.meta.url, {
  'key-create': { version: 1, numberOfKeys: 4 },
  'key-revoke': { version: 1, numberOfKeys: 2 },
  'key-rename': { version: 1, numberOfKeys: 1 },
  'plan-set': { version: 1, numberOfKeys: 1 },
  'key-gate': { version: 3, numberOfKeys: 6, includes: ['rate-window'] },
  'key-usage': { version: 1, numberOfKeys: 2 },
});
