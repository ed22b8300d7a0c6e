/** Loads the liquidation .lua scripts beside this file into an ioredis client with defineCommand. */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const SCRIPTS = {
  liqIngest: { file: 'liq-ingest.lua', numberOfKeys: 1 },
  liqExpire: { file: 'liq-expire.lua', numberOfKeys: 1 },
} as const;

export type LiquidationScript = keyof typeof SCRIPTS;

const sources = new Map<LiquidationScript, string>();
const defined = new WeakSet<Redis>();

function source(name: LiquidationScript): string {
  let lua = sources.get(name);
  if (lua === undefined) {
    lua = readFileSync(new URL(SCRIPTS[name].file, import.meta.url), 'utf8');
    sources.set(name, lua);
  }
  return lua;
}

/** Defines the scripts once per client, outside auto-pipelining (see shared/market/lua/market-scripts.ts). */
export function defineLiquidationScripts(redis: Redis): void {
  if (defined.has(redis)) return;
  const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
  for (const name of Object.keys(SCRIPTS) as LiquidationScript[]) if (!ignored.includes(name)) ignored.push(name);
  redis.options.autoPipeliningIgnoredCommands = ignored;
  for (const name of Object.keys(SCRIPTS) as LiquidationScript[]) {
    redis.defineCommand(name, { numberOfKeys: SCRIPTS[name].numberOfKeys, lua: source(name) });
  }
  defined.add(redis);
}

/** Runs one script (EVALSHA, EVAL the first time) and answers its raw reply. */
export async function runLiquidationScript(redis: Redis, name: LiquidationScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  defineLiquidationScripts(redis);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  return (await command.call(redis, ...keys, ...args)) as unknown;
}
