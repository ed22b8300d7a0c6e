/** The arena's .lua scripts beside this file. */
import { LuaScripts } from '../../redis/lua-scripts.js';

export const arenaScripts = new LuaScripts(import.meta.url, {
  'arena-close': { version: 1, numberOfKeys: 2 },
});
