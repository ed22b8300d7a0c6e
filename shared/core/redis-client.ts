import { Cluster, type Redis } from 'ioredis';

/**
 * A connection to Redis as every store and service takes it: one server (`Redis`) or a Redis Cluster reached through
 * ioredis's `Cluster` client (REDIS_CLUSTER). A union, not a narrower interface, so each place where the two behave
 * differently (a SCAN reaches one node, a subscriber, the socket under a pipeline) has to say which one it handles;
 * the commands both share (every keyed command, scripts, per-slot pipelines) type-check unchanged.
 */
export type RedisClient = Redis | Cluster;

/**
 * A new connection like `client` (a subscriber, BullMQ's own): the same server or cluster, the same options;
 * `connectionName` names it in CLIENT LIST (on every node of a cluster).
 */
export function duplicateClient(client: RedisClient, connectionName?: string): RedisClient {
  if (client instanceof Cluster) {
    const redisOptions = connectionName ? { ...client.options.redisOptions, connectionName } : client.options.redisOptions;
    return client.duplicate(undefined, { redisOptions });
  }
  return client.duplicate(connectionName ? { connectionName } : undefined);
}
