/** The relay's Redis side: account outboxes, their leases, the index of unrelayed ones, and the account channels. */
import type { Redis } from 'ioredis';
import type { RedisClient } from '../core/redis-client.js';
import { marketScripts } from '../market/lua/market-scripts.js';
import { keys } from '../redis/keys.js';
import { bySlotOwner } from '../redis/slot-owners.js';
import { SLOTS } from '../redis/slot-tags.js';
import { pushScripts } from './lua/push-scripts.js';
import type { OutboxEntry } from './push-event.js';

const OUTBOX_KEY = /^acct:\{([^}]+)\}:outbox$/;

/** The account of an outbox key (what the scripts publish as a nudge), or null for anything else. */
export function accountOfOutbox(key: string): string | null {
  return OUTBOX_KEY.exec(key)?.[1] ?? null;
}

/** A stream entry id starts with the time it was appended, ms. */
function appendedAt(entryId: string): number | null {
  const ms = Number.parseInt(entryId, 10);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The outbox keys the index sets of `slots` hold on `node`, in one script call. A slot that moved meanwhile fails the
 * call on a cluster (the node no longer serves it): nothing from this node this pass, the next pass reads it again.
 */
async function indexedIn(node: Redis, slots: number[], report: (error: unknown) => void): Promise<string[]> {
  try {
    const reply = await pushScripts.run(node, 'outbox-index-read', { keys: [], args: slots.map(keys.outboxIndexOfSlot) });
    return reply as string[];
  } catch (error) {
    report(error);
    return [];
  }
}

export interface OutboxScanReport {
  at: number;
  oldestMs: number | null;
}

function fieldsOf(flat: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return fields;
}

export class OutboxStore {
  constructor(private readonly redis: RedisClient) {}

  /** Takes the outbox's lease: true when this relay now drains it alone. */
  async acquire(accountId: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(keys.outboxLease(accountId), owner, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async release(accountId: string, owner: string): Promise<void> {
    await marketScripts.runInteger(this.redis, 'lease-release', { keys: [keys.outboxLease(accountId)], args: [owner] });
  }

  /** The oldest entries, in order: what the outbox still holds has not been relayed yet. */
  async head(accountId: string, count: number): Promise<OutboxEntry[]> {
    const rows = await this.redis.xrange(keys.accountOutbox(accountId), '-', '+', 'COUNT', count);
    return rows.map(([id, flat]) => ({ id, fields: fieldsOf(flat) }));
  }

  /**
   * Removes relayed entries and extends the lease; an outbox left empty leaves its index. The entries left, or null
   * (nothing removed) when the lease was lost meanwhile. With no ids: only drops an empty outbox from the index.
   */
  async ack(accountId: string, owner: string, ids: string[], ttlMs: number): Promise<number | null> {
    const reply = await pushScripts.run(this.redis, 'outbox-ack', {
      keys: [keys.outboxLease(accountId), keys.accountOutbox(accountId), keys.outboxIndex(accountId)],
      args: [owner, ttlMs, ...ids],
    });
    return typeof reply === 'number' && reply >= 0 ? reply : null;
  }

  /**
   * Publishes an account's channel messages in order (one pipeline: Redis delivers them in this order). `publisher`: where
   * they go out (the relay's orderedPublisher); the store's connection by default.
   */
  async publish(accountId: string, messages: string[], publisher: RedisClient = this.redis): Promise<void> {
    if (messages.length === 0) return;
    const pipeline = publisher.pipeline();
    for (const message of messages) pipeline.publish(keys.accountEvents(accountId), message);
    await pipeline.exec();
  }

  /** The pass lease: one relay in the cluster looks for forgotten outboxes per period. */
  async acquireScan(owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(keys.outboxScanLease, owner, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** Extends the pass lease while its pass goes on; false when it is no longer this relay's. */
  async renewScan(owner: string, ttlMs: number): Promise<boolean> {
    return (await marketScripts.runInteger(this.redis, 'lease-renew', { keys: [keys.outboxScanLease], args: [owner, ttlMs] })) === 1;
  }

  /**
   * The outboxes that slots [from, from + count) index (keys.outboxIndex): the accounts whose outbox may hold entries,
   * and the append time of the oldest entry among their heads (null when none holds any). Reads only the index sets,
   * never the keyspace: on a cluster each master is asked for its own slots' sets (one script call each). A part it
   * could not read is passed to `report` (the pass is then incomplete) and skipped.
   */
  async indexStep(from: number, count: number, report: (error: unknown) => void): Promise<{ accounts: string[]; oldestMs: number | null }> {
    const slots = Array.from({ length: Math.min(count, SLOTS - from) }, (_, i) => from + i);
    const owners = bySlotOwner(this.redis, slots);
    // a slot whose master the client does not know yet (a failover under way) is read by a later pass
    const known = [...owners.values()].reduce((sum, owned) => sum + owned.length, 0);
    if (known < slots.length) report(new Error(`outbox index: ${slots.length - known} slots without a known master`));
    const outboxes = (await Promise.all([...owners].map(([node, owned]) => indexedIn(node, owned, report)))).flat();
    if (outboxes.length === 0) return { accounts: [], oldestMs: null };
    // one XRANGE per outbox, not one pipeline: the outboxes are in as many hash slots as accounts (sent at once)
    const heads = await Promise.all(outboxes.map((key) => this.redis.xrange(key, '-', '+', 'COUNT', 1)));
    const accounts: string[] = [];
    let oldestMs: number | null = null;
    outboxes.forEach((key, i) => {
      const accountId = accountOfOutbox(key);
      if (accountId === null) return;
      // an empty outbox still indexed (appended and drained by a relay of an earlier release): the drain drops it
      accounts.push(accountId);
      const appended = heads[i][0] === undefined ? null : appendedAt(heads[i][0][0]);
      if (appended !== null) oldestMs = Math.min(oldestMs ?? appended, appended);
    });
    return { accounts, oldestMs };
  }

  /** What a complete pass saw: its end time and the oldest unrelayed entry's append time (null: every outbox was empty). */
  async recordScan(report: OutboxScanReport): Promise<void> {
    await this.redis.hset(keys.outboxScanReport, { at: report.at, oldest: report.oldestMs ?? '' });
  }

  /** The last complete pass's report, or null before the first. */
  async lastScan(): Promise<OutboxScanReport | null> {
    const { at, oldest } = await this.redis.hgetall(keys.outboxScanReport);
    if (at === undefined) return null;
    return { at: Number(at), oldestMs: oldest ? Number(oldest) : null };
  }
}
