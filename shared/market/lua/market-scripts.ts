/** The market .lua scripts beside this file (run through shared/redis/lua-scripts.ts). */
import type { Redis } from 'ioredis';
import { integerReply, LuaScripts, type ScriptSpec } from '../../redis/lua-scripts.js';

const SCRIPTS = {
  mktCandleClose: { file: 'candle-close.lua', numberOfKeys: 1 },
  mktLeaseRenew: { file: 'lease-renew.lua', numberOfKeys: 1 },
  mktLeaseRelease: { file: 'lease-release.lua', numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

export type MarketScript = keyof typeof SCRIPTS;

const scripts = new LuaScripts<MarketScript>(import.meta.url, SCRIPTS);

/** Runs one market script and answers its integer reply. */
export async function runMarketScript(redis: Redis, name: MarketScript, keys: string[], args: (string | number)[]): Promise<number> {
  return integerReply(name, await scripts.run(redis, name, { keys, args }));
}
