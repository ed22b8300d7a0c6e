/** Which connection serves each hash slot: what reads a per-slot index (slot-tags.ts) asks each master for its own slots. */
import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from '../core/redis-client.js';

/**
 * On one server, itself for all; on a cluster, the master the client's slot table names (a slot moving meanwhile fails
 * that master's step: the next pass reads it from its new master). A slot whose master the client does not know yet (a
 * failover under way) is left out.
 */
export function bySlotOwner(redis: RedisClient, slots: number[]): Map<Redis, number[]> {
  if (!(redis instanceof Cluster)) return new Map([[redis, slots]]);
  const masters = new Map(redis.nodes('master').map((node) => [`${node.options.host ?? ''}:${node.options.port ?? 0}`, node]));
  const owned = new Map<Redis, number[]>();
  for (const slot of slots) {
    const node = masters.get(redis.slots[slot]?.[0] ?? '');
    if (node === undefined) continue;
    const list = owned.get(node);
    if (list) list.push(slot);
    else owned.set(node, [slot]);
  }
  return owned;
}
