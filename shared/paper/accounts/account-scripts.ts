/** Loads the account .lua scripts (lua/ beside this file) into an ioredis client with defineCommand. */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

interface ScriptSpec {
  file: string;
  numberOfKeys: number;
}

const SCRIPTS = {
  acctKeyCreate: { file: 'lua/key-create.lua', numberOfKeys: 4 },
  acctKeyRevoke: { file: 'lua/key-revoke.lua', numberOfKeys: 2 },
  acctKeyRename: { file: 'lua/key-rename.lua', numberOfKeys: 1 },
  acctPlanSet: { file: 'lua/plan-set.lua', numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

export type AccountScript = keyof typeof SCRIPTS;

const defined = new WeakSet<Redis>();

/**
 * Defines the scripts on a client once, before traffic, and keeps them out of auto-pipelining
 * (see shared/market/lua/market-scripts.ts for why: a pipeline built before defineCommand lacks
 * the new method).
 */
export function defineAccountScripts(redis: Redis): void {
  if (defined.has(redis)) return;
  const names = Object.keys(SCRIPTS) as AccountScript[];
  const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
  for (const name of names) if (!ignored.includes(name)) ignored.push(name);
  redis.options.autoPipeliningIgnoredCommands = ignored;
  for (const name of names) {
    const lua = readFileSync(new URL(SCRIPTS[name].file, import.meta.url), 'utf8');
    redis.defineCommand(name, { numberOfKeys: SCRIPTS[name].numberOfKeys, lua });
  }
  defined.add(redis);
}

/** Runs one account script and answers its integer reply. */
export async function runAccountScript(redis: Redis, name: AccountScript, keys: string[], args: (string | number)[]): Promise<number> {
  defineAccountScripts(redis);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  const reply: unknown = await command.call(redis, ...keys, ...args);
  if (typeof reply !== 'number') throw new Error(`script ${name} answered ${String(reply)}`);
  return reply;
}
