/** The push .lua scripts beside this file (run through shared/redis/lua-scripts.ts). */
import type { Redis } from 'ioredis';
import { LuaScripts, type ScriptSpec } from '../../redis/lua-scripts.js';

const SCRIPTS = {
  pdOutboxAck: { file: 'outbox-ack.lua', numberOfKeys: 2 },
  pdSocketClaim: { file: 'socket-claim.lua', numberOfKeys: 1 },
  pdSocketTrim: { file: 'socket-trim.lua', numberOfKeys: 1 },
  pdWebhookAdd: { file: 'webhook-add.lua', numberOfKeys: 1 },
  pdWebhookOutcome: { file: 'webhook-outcome.lua', numberOfKeys: 3 },
  pdWhsinkRecord: { file: 'whsink-record.lua', numberOfKeys: 3 },
} as const satisfies Record<string, ScriptSpec>;

export type PushScript = keyof typeof SCRIPTS;

const scripts = new LuaScripts<PushScript>(import.meta.url, SCRIPTS);

/** Runs one script and answers its raw reply. */
export function runPushScript(redis: Redis, name: PushScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  return scripts.run(redis, name, { keys, args });
}

/** A script's status-and-count reply, {status, count}. */
export function statusReply(name: PushScript, reply: unknown): [number, number] {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'number') throw new Error(`script ${name} answered ${JSON.stringify(reply)}`);
  return [reply[0], reply[1]];
}
