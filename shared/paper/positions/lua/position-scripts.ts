/** The position .lua scripts beside this file (run through shared/redis/lua-scripts.ts). */
import type { Redis } from 'ioredis';
import { LuaScripts, statusArray, type ScriptSpec } from '../../../redis/lua-scripts.js';

const SCRIPTS = {
  pdPositionOpen: { file: 'position-open.lua', numberOfKeys: 5 },
  pdPositionClose: { file: 'position-close.lua', numberOfKeys: 6 },
  pdPositionSltp: { file: 'position-sltp.lua', numberOfKeys: 2 },
  pdBookReset: { file: 'book-reset.lua', numberOfKeys: 14, prelude: ['../../orders/lua/retire-done-orders.lua'] },
  pdTriggerRanges: { file: 'trigger-ranges.lua', numberOfKeys: 8 },
} as const satisfies Record<string, ScriptSpec>;

export type PositionScript = keyof typeof SCRIPTS;

const scripts = new LuaScripts<PositionScript>(import.meta.url, SCRIPTS);

/** A script call: its keys, then its arguments, in one array (the script's numberOfKeys splits them). */
export type ScriptCall = readonly (string | number)[];

/** Splits a call at the script's key count (a call too short to hold its keys is refused by the runner). */
function split(name: PositionScript, call: ScriptCall): { keys: string[]; args: (string | number)[] } {
  const count = SCRIPTS[name].numberOfKeys;
  return { keys: call.slice(0, count).map(String), args: call.slice(count) };
}

/** Runs one script and answers its reply: an array whose first element is the status. */
export async function runPositionScript(redis: Redis, name: PositionScript, call: ScriptCall): Promise<[number, ...unknown[]]> {
  return statusArray(name, await scripts.run(redis, name, split(name, call)));
}

/** Runs one script many times in one pipeline; replies in the order of the calls. */
export async function runPositionScripts(redis: Redis, name: PositionScript, calls: readonly ScriptCall[]): Promise<[number, ...unknown[]][]> {
  const replies = await scripts.runMany(redis, name, calls.map((call) => split(name, call)));
  return replies.map((reply) => statusArray(name, reply));
}
