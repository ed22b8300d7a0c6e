/**
 * BullMQ, the leases (feeds, relays, replays) and the idempotency keys need Redis to refuse writes when full
 * (`maxmemory-policy noeviction`), never to drop keys: a managed Redis's default (`volatile-lru`) evicts exactly the keys
 * with a time to live, so two feeds would run at once and a retried open would open twice. Checked at start on every
 * master; any other policy refuses to start (docs/OPERATIONS.md, Redis).
 */
import type { RedisClient } from '../core/redis-client.js';
import { evictionPolicy } from '../metrics/metrics.js';
import { masterNodes } from './connection.js';

export class EvictionPolicyError extends Error {}

/** The `maxmemory_policy` line of INFO memory (managed services that hide CONFIG GET still answer INFO), or null. */
export function policyOf(infoMemory: string): string | null {
  return /^maxmemory_policy:(\S+)/m.exec(infoMemory)?.[1] ?? null;
}

/**
 * Throws EvictionPolicyError naming the masters whose policy evicts; answers false (and the gauge says 0) when a master
 * does not report its policy (a proxy that filters INFO): the caller warns, as nothing could be checked.
 */
export async function checkEvictionPolicy(redis: RedisClient): Promise<boolean> {
  const masters = await masterNodes(redis);
  const policies = await Promise.all(masters.map(async (node) => ({ node, policy: policyOf(await node.info('memory')) })));
  const evicting = policies.filter((p) => p.policy !== null && p.policy !== 'noeviction');
  if (evicting.length > 0) {
    const named = evicting.map((p) => `${p.node.options.host ?? ''}:${p.node.options.port ?? ''} has ${p.policy}`).join(', ');
    throw new EvictionPolicyError(
      `Redis maxmemory-policy must be noeviction (an evicting Redis drops queue jobs, leases and idempotency keys): ${named}`,
    );
  }
  const known = policies.every((p) => p.policy === 'noeviction');
  evictionPolicy.set(known ? 1 : 0);
  return known;
}
