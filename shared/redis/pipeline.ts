import { Cluster } from 'ioredis';
import type { RedisClient } from '../core/redis-client.js';

export type Pipeline = ReturnType<RedisClient['pipeline']>;

/** Runs a pipeline and answers its replies in order; throws the first command error (ioredis reports them per command). */
export async function execPipeline(pipeline: Pipeline): Promise<unknown[]> {
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/**
 * Issues the commands `send` makes on `redis` in one socket write, without a pipeline object: the
 * socket is corked while they are written, uncorked right after. Commands on one connection run
 * in the order sent, as in a pipeline; each answers on its own. Each ioredis pipeline left
 * garbage in the old generation, freed only by a full collection, and the API's batched usage
 * counts made enough of it to bring full collections often (bench/README.md, design figures); per
 * command, a pipeline costs less (lua-scripts.ts, BatchTransport).
 */
export function inOneWrite<T>(redis: RedisClient, send: () => T): T {
  // a Cluster client writes to several nodes, each command to its slot's
  if (redis instanceof Cluster) return send();
  // before the connection is ready commands wait in ioredis's offline queue, which it sends in order
  const socket = redis.status === 'ready' ? redis.stream : undefined;
  socket?.cork();
  try {
    return send();
  } finally {
    socket?.uncork();
  }
}

type Sender = (...args: unknown[]) => Promise<unknown>;

/**
 * A pipeline whose keys may lie in any hash slots. On one server it is an ioredis pipeline. A Cluster client refuses a
 * pipeline whose keys are served by several nodes (and one whose slot moves meanwhile), so on a cluster this one
 * records the commands and exec() sends each on its own to its slot's node, in order, answering the same
 * [error, reply] pairs as a pipeline. It is a batch of independent commands, as an ioredis pipeline is: not a
 * transaction (that is multi(), whose keys must share a slot).
 */
export function anySlotPipeline(redis: RedisClient): Pipeline {
  if (!(redis instanceof Cluster)) return redis.pipeline();
  const cluster = redis as unknown as Record<string, Sender>;
  const queued: [string, unknown[]][] = [];
  const recorder: Pipeline = new Proxy(redis.pipeline(), {
    get(_pipeline, property) {
      if (property === 'exec')
        return () =>
          Promise.all(
            queued.map(([name, args]) =>
              cluster[name](...args).then(
                (reply): [null, unknown] => [null, reply],
                (error: Error): [Error, undefined] => [error, undefined],
              ),
            ),
          );
      if (property === 'length') return queued.length;
      if (typeof property !== 'string' || typeof cluster[property] !== 'function') return undefined;
      return (...args: unknown[]) => {
        queued.push([property, args]);
        return recorder;
      };
    },
  });
  return recorder;
}

/**
 * Runs `first`, then `second`. On one server both are sent at once: one connection runs them in that order, with no
 * round trip between. On a cluster their keys may sit on different nodes, which nothing orders, so `second` is sent
 * once `first` answered.
 */
export async function firstThen<A, B>(redis: RedisClient, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
  if (!(redis instanceof Cluster)) return Promise.all([first(), second()]);
  const a = await first();
  return [a, await second()];
}
