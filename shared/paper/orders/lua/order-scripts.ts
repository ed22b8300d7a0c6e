/** The order .lua scripts beside this file (run through shared/redis/lua-scripts.ts). */
import type { Redis } from 'ioredis';
import { LuaScripts, type ScriptSpec, statusArray } from '../../../redis/lua-scripts.js';

/** The function that moves a book's oldest done orders to tombstones (book-reset.lua runs it too). */
const RETIRE_DONE_ORDERS = 'retire-done-orders.lua';

const SCRIPTS = {
  pdOrderPlace: { file: 'order-place.lua', numberOfKeys: 3 },
  pdOrderFill: { file: 'order-fill.lua', numberOfKeys: 8, prelude: [RETIRE_DONE_ORDERS] },
  pdOrderModify: { file: 'order-modify.lua', numberOfKeys: 2 },
  pdOrderClose: { file: 'order-close.lua', numberOfKeys: 6, prelude: [RETIRE_DONE_ORDERS] },
} as const satisfies Record<string, ScriptSpec>;

export type OrderScript = keyof typeof SCRIPTS;

const scripts = new LuaScripts<OrderScript>(import.meta.url, SCRIPTS);

/** Runs one script and answers its reply: an array whose first element is the status. */
export async function runOrderScript(redis: Redis, name: OrderScript, keys: string[], args: (string | number)[]): Promise<[number, ...unknown[]]> {
  return statusArray(name, await scripts.run(redis, name, { keys, args }));
}
