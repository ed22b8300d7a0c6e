/** Loads the market .lua scripts beside this file into an ioredis client with defineCommand. */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

interface ScriptSpec {
  file: string;
  numberOfKeys: number;
}

const SCRIPTS = {
  mktCandleClose: { file: 'candle-close.lua', numberOfKeys: 1 },
  mktLeaseRenew: { file: 'lease-renew.lua', numberOfKeys: 1 },
  mktLeaseRelease: { file: 'lease-release.lua', numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

export type MarketScript = keyof typeof SCRIPTS;

const sources = new Map<MarketScript, string>();
const defined = new WeakSet<Redis>();

function source(name: MarketScript): string {
  let lua = sources.get(name);
  if (lua === undefined) {
    lua = readFileSync(new URL(SCRIPTS[name].file, import.meta.url), 'utf8');
    sources.set(name, lua);
  }
  return lua;
}

/**
 * Defines the scripts on a client (once). They are kept out of auto-pipelining: an auto-pipeline
 * created before defineCommand lacks the new method, and ioredis then crashes the process with
 * "results[i] is not iterable" when that pipeline runs. Sent directly, a script is one EVALSHA
 * (EVAL the first time on a connection) whenever it is defined.
 */
export function defineMarketScripts(redis: Redis): void {
  if (defined.has(redis)) return;
  const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
  for (const name of Object.keys(SCRIPTS) as MarketScript[]) {
    if (!ignored.includes(name)) ignored.push(name);
  }
  redis.options.autoPipeliningIgnoredCommands = ignored;
  for (const name of Object.keys(SCRIPTS) as MarketScript[]) {
    redis.defineCommand(name, { numberOfKeys: SCRIPTS[name].numberOfKeys, lua: source(name) });
  }
  defined.add(redis);
}

/** Runs one market script (EVALSHA with EVAL fallback, as defineCommand does) and answers its integer reply. */
export async function runMarketScript(redis: Redis, name: MarketScript, keys: string[], args: (string | number)[]): Promise<number> {
  defineMarketScripts(redis);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  const reply: unknown = await command.call(redis, ...keys, ...args);
  if (typeof reply !== 'number') throw new Error(`script ${name} answered ${String(reply)}`);
  return reply;
}
