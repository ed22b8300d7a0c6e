/** The market .lua scripts beside this file (candle close, the feed lease). */
import { LuaScripts } from '../../redis/lua-scripts.js';

export const marketScripts = new LuaScripts(import.meta.url, {
  'candle-close': { version: 1, numberOfKeys: 1 },
  'lease-renew': { version: 1, numberOfKeys: 1 },
  'lease-release': { version: 1, numberOfKeys: 1 },
});
