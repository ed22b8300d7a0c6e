/** The position .lua scripts beside this file: defined on a client (defineCommand) for single calls, plain EVALSHA for pipelines. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const SCRIPTS = {
  pdPositionOpen: { file: 'position-open.lua', numberOfKeys: 9 },
  pdPositionClose: { file: 'position-close.lua', numberOfKeys: 10 },
  pdPositionSltp: { file: 'position-sltp.lua', numberOfKeys: 5 },
  pdBookReset: { file: 'book-reset.lua', numberOfKeys: 12 },
  pdTriggerRanges: { file: 'trigger-ranges.lua', numberOfKeys: 8 },
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

/** A script call: its keys, then its arguments, in one array (the script's numberOfKeys splits them). */
export type ScriptCall = readonly (string | number)[];

/** Runs one script (EVALSHA, EVAL the first time) and answers its reply: an array whose first element is the status. */
export async function runPositionScript(redis: Redis, name: PositionScript, call: ScriptCall): Promise<[number, ...unknown[]]> {
  if (call.length < SCRIPTS[name].numberOfKeys) throw new Error(`script ${name} takes ${SCRIPTS[name].numberOfKeys} keys, got ${call.length} values`);
  definePositionScripts(redis);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  return statusReply(name, await Reflect.apply(command, redis, call));
}

function statusReply(name: PositionScript, reply: unknown): [number, ...unknown[]] {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new Error(`script ${name} answered ${JSON.stringify(reply)}`);
  return reply as [number, ...unknown[]];
}

/** The SHA-1 a script is cached under on the server. */
const shas = new Map<PositionScript, string>();
function scriptSha(name: PositionScript): string {
  let sha = shas.get(name);
  if (sha === undefined) {
    sha = createHash('sha1').update(source(name)).digest('hex');
    shas.set(name, sha);
  }
  return sha;
}

/** Sends the calls as plain EVALSHA in one pipeline (cheaper per call than a defined command); each call's [error, reply]. */
async function evalShaAll(redis: Redis, name: PositionScript, calls: readonly ScriptCall[]): Promise<[Error | null, unknown][]> {
  const pipeline = redis.pipeline();
  const sha = scriptSha(name);
  const keyCount = SCRIPTS[name].numberOfKeys;
  for (const call of calls) {
    if (call.length < keyCount) throw new Error(`script ${name} takes ${keyCount} keys, got ${call.length} values`);
    pipeline.evalsha(sha, keyCount, ...call);
  }
  return (await pipeline.exec()) ?? [];
}

/**
 * Runs one script many times in one pipeline; replies in the order of the calls. Calls the server
 * answered NOSCRIPT (its script cache was emptied: a restart, SCRIPT FLUSH) did not run: the script
 * is loaded and they are sent again. Throws when any call failed otherwise.
 */
export async function runPositionScripts(redis: Redis, name: PositionScript, calls: readonly ScriptCall[]): Promise<[number, ...unknown[]][]> {
  if (calls.length === 0) return [];
  const results = await evalShaAll(redis, name, calls);
  const unknown = results.flatMap(([error], i) => (error?.message.startsWith('NOSCRIPT') ? [i] : []));
  if (unknown.length > 0) {
    await redis.script('LOAD', source(name));
    const again = await evalShaAll(redis, name, unknown.map((i) => calls[i]));
    unknown.forEach((i, k) => (results[i] = again[k]));
  }
  return results.map(([error, reply]) => {
    if (error) throw error;
    return statusReply(name, reply);
  });
}
