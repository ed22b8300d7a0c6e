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
  // a Cluster client writes to several nodes: its auto-pipelining already batches a tick's commands per node
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
