/** The relay's Redis side: account outboxes, their leases, the scan for forgotten ones, and the account channels. */
import type { RedisClient } from '../core/redis-client.js';
import { marketScripts } from '../market/lua/market-scripts.js';
import { keys } from '../redis/keys.js';
import { scanStep } from '../redis/scan.js';
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
  /** `publisher`: where the account channels' messages go out (orderedPublisher); the store's client by default. */
  constructor(
    private readonly redis: RedisClient,
    private readonly publisher: RedisClient = redis,
  ) {}

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

  /** Removes relayed entries and extends the lease; false (nothing removed) when the lease was lost meanwhile. */
  async ack(accountId: string, owner: string, ids: string[], ttlMs: number): Promise<boolean> {
    const reply = await pushScripts.run(this.redis, 'outbox-ack', {
      keys: [keys.outboxLease(accountId), keys.accountOutbox(accountId)],
      args: [owner, ttlMs, ...ids],
    });
    return typeof reply === 'number' && reply >= 0;
  }

  /** Publishes an account's channel messages in order (one pipeline: Redis delivers them in this order). */
  async publish(accountId: string, messages: string[]): Promise<void> {
    if (messages.length === 0) return;
    const pipeline = this.publisher.pipeline();
    for (const message of messages) pipeline.publish(keys.accountEvents(accountId), message);
    await pipeline.exec();
  }

  /** The scan lease: one relay in the cluster scans per period. */
  async acquireScan(owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(keys.outboxScanLease, owner, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /**
   * One SCAN step over the outboxes: the next cursor ('0' at the end), the accounts whose outbox holds entries, and the
   * append time of the oldest entry among their heads (null when none holds any).
   */
  async scanStep(cursor: string): Promise<{ cursor: string; accounts: string[]; oldestMs: number | null }> {
    const [next, found] = await scanStep(this.redis, cursor, { match: keys.accountOutboxPattern, count: 1000, type: 'stream' });
    if (found.length === 0) return { cursor: next, accounts: [], oldestMs: null };
    // one XRANGE per outbox, not one pipeline: the outboxes are in as many hash slots as accounts (sent at once)
    const heads = await Promise.all(found.map((key) => this.redis.xrange(key, '-', '+', 'COUNT', 1)));
    const accounts: string[] = [];
    let oldestMs: number | null = null;
    found.forEach((key, i) => {
      const head = heads[i][0];
      const accountId = accountOfOutbox(key);
      if (head === undefined || accountId === null) return;
      accounts.push(accountId);
      const appended = appendedAt(head[0]);
      if (appended !== null) oldestMs = Math.min(oldestMs ?? appended, appended);
    });
    return { cursor: next, accounts, oldestMs };
  }

  /** What a complete scan saw: its end time and the oldest unrelayed entry's append time (null: every outbox was empty). */
  async recordScan(report: OutboxScanReport): Promise<void> {
    await this.redis.hset(keys.outboxScanReport, { at: report.at, oldest: report.oldestMs ?? '' });
  }

  /** The last complete scan's report, or null before the first. */
  async lastScan(): Promise<OutboxScanReport | null> {
    const { at, oldest } = await this.redis.hgetall(keys.outboxScanReport);
    if (at === undefined) return null;
    return { at: Number(at), oldestMs: oldest ? Number(oldest) : null };
  }
}
