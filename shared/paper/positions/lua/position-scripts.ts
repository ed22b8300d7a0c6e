/** Loads the position .lua scripts beside this file into an ioredis client with defineCommand. */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const SCRIPTS = {
  pdPositionOpen: { file: 'position-open.lua', numberOfKeys: 9 },
  pdPositionClose: { file: 'position-close.lua', numberOfKeys: 10 },
  pdPositionSltp: { file: 'position-sltp.lua', numberOfKeys: 5 },
  pdBookReset: { file: 'book-reset.lua', numberOfKeys: 12 },
} as const;

export type PositionScript = keyof typeof SCRIPTS;

const sources = new Map<PositionScript, string>();
const defined = new WeakSet<Redis>();

function source(name: PositionScript): string {
  let lua = sources.get(name);
  if (lua === undefined) {
    lua = readFileSync(new URL(SCRIPTS[name].file, import.meta.url), 'utf8');
    sources.set(name, lua);
  }
  return lua;
}

/**
 * Defines the scripts on a client (once), kept out of auto-pipelining like the market scripts
 * (an auto-pipeline created before defineCommand lacks the method and ioredis then fails).
 */
export function definePositionScripts(redis: Redis): void {
  if (defined.has(redis)) return;
  const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
  for (const name of Object.keys(SCRIPTS) as PositionScript[]) {
    if (!ignored.includes(name)) ignored.push(name);
  }
  redis.options.autoPipeliningIgnoredCommands = ignored;
  for (const name of Object.keys(SCRIPTS) as PositionScript[]) {
    if (SCRIPTS[name].numberOfKeys < 1) throw new Error(`script ${name} declares no keys`);
    redis.defineCommand(name, { numberOfKeys: SCRIPTS[name].numberOfKeys, lua: source(name) });
  }
  defined.add(redis);
}

/** Runs one script (EVALSHA, EVAL the first time) and answers its reply: an array whose first element is the status. */
export async function runPositionScript(redis: Redis, name: PositionScript, keys: string[], args: (string | number)[]): Promise<[number, ...unknown[]]> {
  if (keys.length !== SCRIPTS[name].numberOfKeys) throw new Error(`script ${name} takes ${SCRIPTS[name].numberOfKeys} keys, got ${keys.length}`);
  definePositionScripts(redis);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  return statusReply(name, await command.call(redis, ...keys, ...args));
}

function statusReply(name: PositionScript, reply: unknown): [number, ...unknown[]] {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new Error(`script ${name} answered ${JSON.stringify(reply)}`);
  return reply as [number, ...unknown[]];
}

/**
 * Runs one script many times in one pipeline (EVALSHA; ioredis loads the script first when needed);
 * replies in the order of the calls. Throws when any call failed.
 */
export async function runPositionScripts(redis: Redis, name: PositionScript, calls: readonly { keys: string[]; args: (string | number)[] }[]): Promise<[number, ...unknown[]][]> {
  if (calls.length === 0) return [];
  definePositionScripts(redis);
  const pipeline = redis.pipeline();
  const command: unknown = Reflect.get(pipeline, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  for (const call of calls) {
    if (call.keys.length !== SCRIPTS[name].numberOfKeys) throw new Error(`script ${name} takes ${SCRIPTS[name].numberOfKeys} keys, got ${call.keys.length}`);
    command.call(pipeline, ...call.keys, ...call.args);
  }
  return ((await pipeline.exec()) ?? []).map(([error, reply]) => {
    if (error) throw error;
    return statusReply(name, reply);
  });
}
