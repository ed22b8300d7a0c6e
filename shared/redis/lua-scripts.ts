/**
 * Runs the .lua scripts kept beside the code that uses them. Every feature declares its set in
 * `<feature>/lua/<feature>-scripts.ts`, one LuaScripts over the .lua files of that folder; a
 * script is named `name:version` (`position-open:1`) in errors and logs, the version raised when
 * its keys, arguments or reply change. Functions several scripts share live in lua/includes/ beside
 * this file and are sent ahead of a script that lists them (Lua has no import).
 *
 * Every call is a plain EVALSHA, and a call the server answers NOSCRIPT (its script cache was
 * emptied: a restart, SCRIPT FLUSH, a failover) is sent again as EVAL with the script's text, which
 * is what ioredis's defineCommand does: EVAL goes to whichever node serves the call's keys then and
 * caches the script there. Loading it on the masters the client knows instead missed a replica
 * promoted since the client last read the slot table, whose cache is empty (scripts are not
 * replicated), and the call failed NOSCRIPT twice. Scripts are deliberately not defined on the client: every pipeline
 * ioredis builds (auto-pipelining builds one per event-loop turn) copies each defined command onto
 * itself, a cost the API pays on every keyed request (bench/README.md); and a pipeline built before
 * a script was defined lacks it. EVALSHA joins the auto-pipeline like any other command.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Cluster } from 'ioredis';
import type { RedisClient } from '../core/redis-client.js';
import { inOneWrite } from './pipeline.js';

export interface ScriptSpec {
  /** Raised when the script's keys, arguments or reply change; the script is `name:version` in errors and logs. */
  version: number;
  /** Keys of one call. */
  numberOfKeys: number;
  /** Names of shared functions in lua/includes/ (`retire-done-orders`), sent ahead of the script in this order. */
  includes?: readonly string[];
}

/** A call as sent: its keys, then its arguments. */
export interface ScriptCall {
  keys: readonly string[];
  args: readonly (string | number)[];
}

/** A reply led by a numeric status (most scripts' shape). */
export type StatusReply = [number, ...unknown[]];

const INCLUDES = new URL('lua/includes/', import.meta.url);

const isNoScript = (error: unknown): boolean => error instanceof Error && error.message.startsWith('NOSCRIPT');

/**
 * How a batch of calls goes out. 'pipeline': one ioredis pipeline, the cheapest per call (the
 * minute sweep, which sends thousands, is faster this way than with 'one-write').
 * 'one-write': the calls on their own, in one socket write (inOneWrite): no pipeline object, whose
 * old-generation garbage cost the API, sending a small batch every 100 ms, more than its calls
 * (bench/README.md, design figures).
 */
export type BatchTransport = 'pipeline' | 'one-write';

/** The scripts of one feature: `<name>.lua` beside the module that declares the set (its `import.meta.url`). */
export class LuaScripts<Name extends string> {
  private readonly sources = new Map<Name, { lua: string; sha: string }>();

  /** `base`: the declaring module's import.meta.url (the files are read the first time they run). */
  constructor(
    private readonly base: string,
    private readonly specs: Readonly<Record<Name, ScriptSpec>>,
  ) {}

  /** `name:version`, as errors and logs name the script. */
  id(name: Name): string {
    return `${name}:${this.specs[name].version}`;
  }

  /** Runs one call and answers the script's raw reply. */
  async run(redis: RedisClient, name: Name, call: ScriptCall): Promise<unknown> {
    this.check(name, call);
    const { sha } = this.script(name);
    try {
      return await redis.evalsha(sha, call.keys.length, ...call.keys, ...call.args);
    } catch (error) {
      if (!isNoScript(error)) throw this.named(name, error);
      const { lua } = this.script(name);
      return redis
        .eval(lua, call.keys.length, ...call.keys, ...call.args)
        .catch((again: unknown) => Promise.reject(this.named(name, again)));
    }
  }

  /** Runs one call of a script that answers an array led by a numeric status. */
  async runStatus(redis: RedisClient, name: Name, call: ScriptCall): Promise<StatusReply> {
    return this.statusReply(name, await this.run(redis, name, call));
  }

  /** Runs one call of a script that answers an integer. */
  async runInteger(redis: RedisClient, name: Name, call: ScriptCall): Promise<number> {
    const reply = await this.run(redis, name, call);
    if (typeof reply !== 'number') throw new Error(`script ${this.id(name)} answered ${String(reply)}`);
    return reply;
  }

  /**
   * Runs many calls in one batch (a pipeline unless told); replies in the order of the calls. Throws when any call failed
   * (other than NOSCRIPT: those did not run, and are sent again as EVAL).
   */
  async runMany(redis: RedisClient, name: Name, calls: readonly ScriptCall[], transport: BatchTransport = 'pipeline'): Promise<unknown[]> {
    if (calls.length === 0) return [];
    // one call needs no pipeline (a manual close or sltp goes through the same many-call path as the sweep)
    if (calls.length === 1) return [await this.run(redis, name, calls[0])];
    for (const call of calls) this.check(name, call);
    const results = await this.batch(redis, name, calls, transport, 'evalsha');
    const unknown = results.flatMap(([error], i) => (isNoScript(error) ? [i] : []));
    if (unknown.length > 0) {
      const again = await this.batch(
        redis,
        name,
        unknown.map((i) => calls[i]),
        transport,
        'eval',
      );
      unknown.forEach((i, k) => (results[i] = again[k]));
    }
    return results.map(([error, reply]) => {
      if (error) throw this.named(name, error);
      return reply;
    });
  }

  /** runMany for a script that answers an array led by a numeric status. */
  async runManyStatus(redis: RedisClient, name: Name, calls: readonly ScriptCall[], transport?: BatchTransport): Promise<StatusReply[]> {
    return (await this.runMany(redis, name, calls, transport)).map((reply) => this.statusReply(name, reply));
  }

  private statusReply(name: Name, reply: unknown): StatusReply {
    if (!Array.isArray(reply) || typeof reply[0] !== 'number') throw new Error(`script ${this.id(name)} answered ${JSON.stringify(reply)}`);
    return reply as StatusReply;
  }

  /** Tags a failure with the script's `name:version` (a `script` field the log prints); its message stays as Redis wrote it. */
  private named(name: Name, error: unknown): unknown {
    if (error instanceof Error) Object.assign(error, { script: this.id(name) });
    return error;
  }

  /** A call with a wrong key count is refused before anything is sent. */
  private check(name: Name, call: ScriptCall): void {
    const expected = this.specs[name].numberOfKeys;
    if (call.keys.length !== expected) throw new Error(`script ${this.id(name)} takes ${expected} keys, got ${call.keys.length}`);
  }

  /** Each call's error or reply, in the order of the calls: by the script's hash (evalsha) or its text (eval). */
  private async batch(
    redis: RedisClient,
    name: Name,
    calls: readonly ScriptCall[],
    transport: BatchTransport,
    command: 'evalsha' | 'eval',
  ): Promise<[Error | null, unknown][]> {
    const { sha, lua } = this.script(name);
    const script = command === 'evalsha' ? sha : lua;
    // a Cluster client refuses a pipeline over keys of several hash slots: the calls go on their own (each to its slot's node)
    if (transport === 'one-write' || redis instanceof Cluster) {
      const replies = inOneWrite(redis, () => calls.map((call) => redis[command](script, call.keys.length, ...call.keys, ...call.args)));
      return (await Promise.allSettled(replies)).map((settled) =>
        settled.status === 'fulfilled' ? [null, settled.value] : [settled.reason as Error, undefined],
      );
    }
    const pipeline = redis.pipeline();
    for (const call of calls) pipeline[command](script, call.keys.length, ...call.keys, ...call.args);
    return (await pipeline.exec()) ?? [];
  }

  private script(name: Name): { lua: string; sha: string } {
    let script = this.sources.get(name);
    if (script === undefined) {
      const files = [
        ...(this.specs[name].includes ?? []).map((include) => new URL(`${include}.lua`, INCLUDES)),
        new URL(`${name}.lua`, this.base),
      ];
      const lua = files.map((file) => readFileSync(file, 'utf8')).join('\n');
      script = { lua, sha: createHash('sha1').update(lua).digest('hex') };
      this.sources.set(name, script);
    }
    return script;
  }
}
