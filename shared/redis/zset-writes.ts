/**
 * Sorted-set writes gathered per key (and ZADD flag), so a batch sends one ZADD or ZREM per key,
 * not one per member (a minute's sweep removes tens of thousands of index entries over a few
 * hundred indexes). The index hints of positions and orders write through it.
 */
import { Cluster } from 'ioredis';
import type { RedisClient } from '../core/redis-client.js';
import { anySlotPipeline, execPipeline, type Pipeline } from './pipeline.js';

type Command = [name: 'zadd' | 'zrem', key: string, ...args: (string | number)[]];

export class ZsetWrites {
  private readonly adds = new Map<string, { key: string; flag: 'GT' | 'LT' | null; pairs: (number | string)[] }>();
  private readonly removes = new Map<string, string[]>();

  /** ZADD, with GT or LT (only ever move the score that way) or none (set it). */
  add(key: string, flag: 'GT' | 'LT' | null, score: number, member: string): void {
    const id = `${flag ?? ''}|${key}`;
    const entry = this.adds.get(id) ?? { key, flag, pairs: [] };
    entry.pairs.push(score, member);
    this.adds.set(id, entry);
  }

  remove(key: string, member: string): void {
    const members = this.removes.get(key) ?? [];
    members.push(member);
    this.removes.set(key, members);
  }

  /**
   * Sends the writes, then reads each record's hash field back, so that each read sees the writes (a
   * hint set exactly, then its record read back). On one server that is one pipeline, which one
   * connection runs in order. On a cluster the hints and the records sit on different nodes, where
   * nothing orders a read on one after a write on another: the reads wait for the writes' replies.
   * Answers the records whose stored JSON is no longer the `raw` they were read with, with what is
   * stored now (null when the record is gone).
   */
  async sendThenChanged<T extends { raw: string }>(
    redis: RedisClient,
    records: readonly T[],
    fieldOf: (record: T) => { key: string; field: string },
  ): Promise<{ record: T; now: string | null }[]> {
    const inOrder = redis instanceof Cluster;
    if (inOrder) await this.send(redis);
    const pipeline = anySlotPipeline(redis);
    const writes = inOrder ? 0 : this.appendTo(pipeline);
    for (const record of records) {
      const { key, field } = fieldOf(record);
      pipeline.hget(key, field);
    }
    const now = (await execPipeline(pipeline)).slice(writes);
    return records.flatMap((record, i) => {
      const raw = now[i];
      return raw === record.raw ? [] : [{ record, now: typeof raw === 'string' ? raw : null }];
    });
  }

  async send(redis: RedisClient): Promise<void> {
    const commands = this.commands();
    if (commands.length === 0) return;
    // one command (a market open without stop or target, its close): sent as it is, no pipeline to build
    if (commands.length === 1) {
      const [name, ...args] = commands[0];
      await redis.call(name, args);
      return;
    }
    const pipeline = anySlotPipeline(redis);
    this.appendTo(pipeline, commands);
    await execPipeline(pipeline);
  }

  /** Queues the writes on a pipeline; answers how many commands that is. */
  private appendTo(pipeline: Pipeline, commands = this.commands()): number {
    for (const [name, ...args] of commands) pipeline.call(name, args);
    return commands.length;
  }

  private commands(): Command[] {
    return [
      ...[...this.adds.values()].map(({ key, flag, pairs }): Command => (flag ? ['zadd', key, flag, ...pairs] : ['zadd', key, ...pairs])),
      ...[...this.removes].map(([key, members]): Command => ['zrem', key, ...members]),
    ];
  }
}
