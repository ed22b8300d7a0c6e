/** The market .lua scripts beside this file (candle close, the feed lease, the upstream budget). */
import { LuaScripts } from '../../redis/lua-scripts.js';

export const marketScripts = new LuaScripts(import.meta.url, {
  'candle-close': { version: 1, numberOfKeys: 1 },
  'lease-renew': { version: 1, numberOfKeys: 1 },
  'lease-release': { version: 1, numberOfKeys: 1 },
  'upstream-take': { version: 1, numberOfKeys: 1 },
});
