import { Cluster, Redis, type ClusterOptions } from 'ioredis';

/**
 * A connection to Redis as every store and service takes it: one server (`Redis`) or a Redis Cluster reached through
 * ioredis's `Cluster` client (REDIS_CLUSTER). A union, not a narrower interface, so each place where the two behave
 * differently (a SCAN reaches one node, a subscriber, the socket under a pipeline) has to say which one it handles;
 * the commands both share (every keyed command, scripts, per-slot pipelines) type-check unchanged.
 */
export type RedisClient = Redis | Cluster;

/** A Cluster client that remembers the seed nodes it was given (ioredis keeps them private): subscriberClient uses one. */
export class SeededCluster extends Cluster {
  constructor(
    readonly seeds: readonly { host: string; port: number }[],
    options: ClusterOptions & { redisOptions?: ClusterOptions['redisOptions'] & { replyMapping?: 'legacy' } },
  ) {
    super([...seeds], options);
  }
}

/**
 * A new connection like `client` (BullMQ's own, a reader that blocks): the same server or cluster, the same options;
 * `connectionName` names it in CLIENT LIST (on every node of a cluster).
 */
export function duplicateClient(client: RedisClient, connectionName?: string): RedisClient {
  if (client instanceof Cluster) {
    const redisOptions = connectionName ? { ...client.options.redisOptions, connectionName } : client.options.redisOptions;
    return client.duplicate(undefined, { redisOptions });
  }
  return client.duplicate(connectionName ? { connectionName } : undefined);
}

/**
 * A connection for SUBSCRIBE. On one server, a duplicate. On a cluster, a plain connection to its first seed node: the
 * cluster bus carries every PUBLISH to every node's subscribers, and a plain connection says when it was lost and is
 * back ('close', then 'ready'), after which its owner knows it may have missed messages (AccountEvents, LatestTicks);
 * ioredis's Cluster subscriber moves to another node without a word. It reports its errors and returns to whatever
 * listens to the cluster client's (the outage log). It reconnects to that seed's address: give REDIS_URL addresses
 * that outlive a node (a Kubernetes Service over the nodes).
 */
export function subscriberClient(client: RedisClient): Redis {
  if (!(client instanceof Cluster)) return client.duplicate();
  if (!(client instanceof SeededCluster)) throw new Error('subscriberClient: a Cluster client made by createRedis (its seeds are needed)');
  const [seed] = client.seeds;
  const subscriber = new Redis({ ...client.options.redisOptions, host: seed.host, port: seed.port });
  for (const event of ['error', 'ready'] as const)
    for (const listener of client.listeners(event)) subscriber.on(event, (...args) => listener(...args));
  return subscriber;
}

/**
 * Where channel messages are published so their subscribers get them in the order sent: on a cluster, a plain connection
 * to the node subscriberClient listens on (a Cluster client would send each PUBLISH to any node, and the cluster bus
 * may then deliver two of them out of order); on one server, the client itself. Null when `client` itself serves.
 */
export function orderedPublisher(client: RedisClient): Redis | null {
  return client instanceof Cluster ? subscriberClient(client) : null;
}
