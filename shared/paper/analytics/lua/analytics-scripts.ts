/** The analytics .lua scripts beside this file (the equity curve's samples; the curve itself is written by position-close.lua). */
import { LuaScripts } from '../../../redis/lua-scripts.js';

export const analyticsScripts = new LuaScripts(import.meta.url, {
  'equity-samples': { version: 1, numberOfKeys: 1 },
});
