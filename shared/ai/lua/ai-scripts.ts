/** The /ai .lua scripts beside this file (the daily read quota). */
import { LuaScripts } from '../../redis/lua-scripts.js';

export const aiScripts = new LuaScripts(import.meta.url, {
  'ai-quota-take': { version: 1, numberOfKeys: 1 },
});
