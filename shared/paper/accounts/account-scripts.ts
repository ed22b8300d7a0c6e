/** The account .lua scripts (lua/ beside this file, run through shared/redis/lua-scripts.ts). */
import type { Redis } from 'ioredis';
import { integerReply, LuaScripts, type BatchTransport, type ScriptCall, type ScriptSpec } from '../../redis/lua-scripts.js';

const SCRIPTS = {
  acctKeyCreate: { file: 'lua/key-create.lua', numberOfKeys: 4 },
  acctKeyRevoke: { file: 'lua/key-revoke.lua', numberOfKeys: 2 },
  acctKeyRename: { file: 'lua/key-rename.lua', numberOfKeys: 1 },
  acctPlanSet: { file: 'lua/plan-set.lua', numberOfKeys: 1 },
  acctKeyGate: { file: 'lua/key-gate.lua', numberOfKeys: 4 },
  acctKeyUsage: { file: 'lua/key-usage.lua', numberOfKeys: 2 },
} as const satisfies Record<string, ScriptSpec>;

export type AccountScript = keyof typeof SCRIPTS;

const scripts = new LuaScripts<AccountScript>(import.meta.url, SCRIPTS);

/** Runs one account script and answers its raw reply. */
export function runAccountScriptRaw(redis: Redis, name: AccountScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  return scripts.run(redis, name, { keys, args });
}

/** Runs one account script and answers its integer reply. */
export async function runAccountScript(redis: Redis, name: AccountScript, keys: string[], args: (string | number)[]): Promise<number> {
  return integerReply(name, await runAccountScriptRaw(redis, name, keys, args));
}

/** Runs many calls of one account script in one batch; the raw replies in the order given. */
export function runAccountScripts(redis: Redis, name: AccountScript, calls: readonly ScriptCall[], transport?: BatchTransport): Promise<unknown[]> {
  return scripts.runMany(redis, name, calls, transport);
}
