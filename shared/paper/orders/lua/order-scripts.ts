/** Loads the order .lua scripts beside this file into an ioredis client with defineCommand. */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const SCRIPTS = {
  pdOrderPlace: { file: 'order-place.lua', numberOfKeys: 5 },
  pdOrderFill: { file: 'order-fill.lua', numberOfKeys: 12 },
  pdOrderModify: { file: 'order-modify.lua', numberOfKeys: 3 },
  pdOrderCancel: { file: 'order-cancel.lua', numberOfKeys: 6 },
  pdOrderExpire: { file: 'order-expire.lua', numberOfKeys: 6 },
} as const;

export type OrderScript = keyof typeof SCRIPTS;

const sources = new Map<OrderScript, string>();
const defined = new WeakSet<Redis>();

function source(name: OrderScript): string {
  let lua = sources.get(name);
  if (lua === undefined) {
    lua = readFileSync(new URL(SCRIPTS[name].file, import.meta.url), 'utf8');
    sources.set(name, lua);
  }
  return lua;
}

/**
 * Defines the scripts on a client (once), kept out of auto-pipelining like the position scripts
 * (an auto-pipeline created before defineCommand lacks the method and ioredis then fails).
 */
export function defineOrderScripts(redis: Redis): void {
  if (defined.has(redis)) return;
  const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
  for (const name of Object.keys(SCRIPTS) as OrderScript[]) {
    if (!ignored.includes(name)) ignored.push(name);
  }
  redis.options.autoPipeliningIgnoredCommands = ignored;
  for (const name of Object.keys(SCRIPTS) as OrderScript[]) {
    redis.defineCommand(name, { numberOfKeys: SCRIPTS[name].numberOfKeys, lua: source(name) });
  }
  defined.add(redis);
}

/** Runs one script (EVALSHA, EVAL the first time) and answers its reply: an array whose first element is the status. */
export async function runOrderScript(redis: Redis, name: OrderScript, keys: string[], args: (string | number)[]): Promise<[number, ...unknown[]]> {
  if (keys.length !== SCRIPTS[name].numberOfKeys) throw new Error(`script ${name} takes ${SCRIPTS[name].numberOfKeys} keys, got ${keys.length}`);
  defineOrderScripts(redis);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  const reply: unknown = await command.call(redis, ...keys, ...args);
  if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new Error(`script ${name} answered ${JSON.stringify(reply)}`);
  return reply as [number, ...unknown[]];
}
