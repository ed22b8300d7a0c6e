/** The liquidation .lua scripts beside this file (run through shared/redis/lua-scripts.ts). */
import type { Redis } from 'ioredis';
import { LuaScripts, type ScriptSpec } from '../../../redis/lua-scripts.js';

const SCRIPTS = {
  liqIngest: { file: 'liq-ingest.lua', numberOfKeys: 1 },
  liqExpire: { file: 'liq-expire.lua', numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

export type LiquidationScript = keyof typeof SCRIPTS;

const scripts = new LuaScripts<LiquidationScript>(import.meta.url, SCRIPTS);

/** Runs one script and answers its raw reply. */
export function runLiquidationScript(redis: Redis, name: LiquidationScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  return scripts.run(redis, name, { keys, args });
}
