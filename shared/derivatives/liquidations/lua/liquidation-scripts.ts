/** The liquidation .lua scripts beside this file (ingest, expire). */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const liquidationScripts = new LuaScripts(import.meta.url, {
  'liq-ingest': { version: 1, numberOfKeys: 1 },
  'liq-expire': { version: 1, numberOfKeys: 1 },
});
