/** Loads the push .lua scripts beside this file into an ioredis client with defineCommand. */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

const SCRIPTS = {
  pdOutboxAck: { file: 'outbox-ack.lua', numberOfKeys: 2 },
  pdSocketClaim: { file: 'socket-claim.lua', numberOfKeys: 1 },
  pdWebhookAdd: { file: 'webhook-add.lua', numberOfKeys: 1 },
  pdWebhookOutcome: { file: 'webhook-outcome.lua', numberOfKeys: 3 },
} as const;

export type PushScript = keyof typeof SCRIPTS;

const sources = new Map<PushScript, string>();
const defined = new WeakSet<Redis>();

function source(name: PushScript): string {
  let lua = sources.get(name);
  if (lua === undefined) {
    lua = readFileSync(new URL(SCRIPTS[name].file, import.meta.url), 'utf8');
    sources.set(name, lua);
  }
  return lua;
}

/** Defines the scripts on a client (once), kept out of auto-pipelining like the other script sets (see market-scripts.ts). */
export function definePushScripts(redis: Redis): void {
  if (defined.has(redis)) return;
  const ignored = redis.options.autoPipeliningIgnoredCommands ?? [];
  for (const name of Object.keys(SCRIPTS) as PushScript[]) {
    if (!ignored.includes(name)) ignored.push(name);
  }
  redis.options.autoPipeliningIgnoredCommands = ignored;
  for (const name of Object.keys(SCRIPTS) as PushScript[]) {
    redis.defineCommand(name, { numberOfKeys: SCRIPTS[name].numberOfKeys, lua: source(name) });
  }
  defined.add(redis);
}

/** Runs one script (EVALSHA, EVAL the first time) and answers its raw reply. */
export async function runPushScript(redis: Redis, name: PushScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  if (keys.length !== SCRIPTS[name].numberOfKeys) throw new Error(`script ${name} takes ${SCRIPTS[name].numberOfKeys} keys, got ${keys.length}`);
  definePushScripts(redis);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`script ${name} is not defined on this connection`);
  return command.call(redis, ...keys, ...args) as Promise<unknown>;
}

/** A script's status-and-count reply, {status, count}. */
export function statusReply(name: PushScript, reply: unknown): [number, number] {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'number') throw new Error(`script ${name} answered ${JSON.stringify(reply)}`);
  return [reply[0], reply[1]];
}
