/** The replay .lua scripts beside this file: start, the clock's frontier, stop. */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const replayScripts = new LuaScripts(import.meta.url, {
  'replay-start': { version: 1, numberOfKeys: 1 },
  'replay-advance': { version: 1, numberOfKeys: 2 },
  'replay-stop': { version: 1, numberOfKeys: 7 },
});
