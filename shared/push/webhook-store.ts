/**
 * An account's webhooks in Redis: the hooks, their counters and the paused set. Only this file and its scripts touch
 * them. A hook's secret is stored sealed (shared/core/secret-box.ts); a hook stored before that, its secret in clear, is
 * sealed the first time it is read (migrated on read).
 */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import { pushScripts } from './lua/push-scripts.js';
import type { WebhookEvent } from './push-event.js';
import { SecretBox } from '../core/secret-box.js';
import { PAUSE_AFTER_FAILURES } from './webhook-retry-policy.js';

export interface WebhookRecord {
  id: string;
  url: string;
  /** Signs every delivery; returned to the client once, at add. */
  secret: string;
  events: WebhookEvent[];
  /** The book whose events it carries (a book-bound key's hook), or null for every book of the account. */
  book: string | null;
  created: number;
}

export interface WebhookStats {
  deliveries: number;
  failures: number;
  consecutive_failures: number;
  last_error: string | null;
  last_status: number | null;
  last_attempt_ts: number | null;
  last_success_ts: number | null;
}

export interface StoredWebhook {
  record: WebhookRecord;
  stats: WebhookStats;
  active: boolean;
}

/** The outcome of one attempt, as the delivery processor saw it. */
export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export type AddOutcome = { kind: 'added' } | { kind: 'cap'; held: number };

const intOrNull = (value: string | undefined): number | null => (value === undefined || value === '' ? null : Number(value));

function parseStats(hash: Record<string, string>): WebhookStats {
  return {
    deliveries: Number(hash.deliveries ?? 0),
    failures: Number(hash.failures ?? 0),
    consecutive_failures: Number(hash.consecutive_failures ?? 0),
    last_error: hash.last_error || null,
    last_status: intOrNull(hash.last_status),
    last_attempt_ts: intOrNull(hash.last_attempt_ts),
    last_success_ts: intOrNull(hash.last_success_ts),
  };
}

/** A hook as stored: its secret sealed, or in clear when it was stored before secrets were sealed. */
type StoredRecord = Omit<WebhookRecord, 'secret'> & { sealed_secret?: string; secret?: string };

export class WebhookStore {
  private readonly box: SecretBox;

  /** `secretsKey`: the 32-byte key the hooks' secrets are sealed under (config.webhookSecretsKey). */
  constructor(
    private readonly redis: RedisClient,
    secretsKey: Buffer,
  ) {
    this.box = new SecretBox(secretsKey);
  }

  /** Adds a hook unless the account holds `max` already (atomic: racing adds never exceed it). */
  async add(accountId: string, record: WebhookRecord, max: number): Promise<AddOutcome> {
    const [status, held] = await pushScripts.runStatus(this.redis, 'webhook-add', {
      keys: [keys.accountWebhooks(accountId)],
      args: [record.id, this.stored(accountId, record), max],
    });
    return status === 1 ? { kind: 'added' } : { kind: 'cap', held: Number(held) };
  }

  /** Every hook of the account with its counters, oldest first. */
  async list(accountId: string): Promise<StoredWebhook[]> {
    const [records, paused] = await Promise.all([
      this.redis.hvals(keys.accountWebhooks(accountId)),
      this.redis.smembers(keys.accountWebhooksPaused(accountId)),
    ]);
    const hooks = (await this.parseAll(accountId, records)).sort((a, b) => a.created - b.created);
    const pipeline = this.redis.pipeline();
    for (const hook of hooks) pipeline.hgetall(keys.webhookStats(accountId, hook.id));
    const stats = (await pipeline.exec()) ?? [];
    const pausedSet = new Set(paused);
    return hooks.map((record, i) => ({
      record,
      stats: parseStats((stats[i]?.[1] as Record<string, string> | undefined) ?? {}),
      active: !pausedSet.has(record.id),
    }));
  }

  /** One hook and whether it is active; null when it does not exist (deleted). */
  async get(accountId: string, hookId: string): Promise<{ record: WebhookRecord; active: boolean } | null> {
    const [raw, paused] = await Promise.all([
      this.redis.hget(keys.accountWebhooks(accountId), hookId),
      this.redis.sismember(keys.accountWebhooksPaused(accountId), hookId),
    ]);
    return raw === null ? null : { record: await this.parse(accountId, raw), active: paused === 0 };
  }

  /** The active hooks of an account: what the relay queues deliveries for. */
  async active(accountId: string): Promise<WebhookRecord[]> {
    const [records, paused] = await Promise.all([
      this.redis.hvals(keys.accountWebhooks(accountId)),
      this.redis.smembers(keys.accountWebhooksPaused(accountId)),
    ]);
    const pausedSet = new Set(paused);
    return (await this.parseAll(accountId, records)).filter((hook) => !pausedSet.has(hook.id));
  }

  /** The JSON a hook is stored as: its secret sealed. */
  private stored(accountId: string, record: WebhookRecord): string {
    const { secret, ...rest } = record;
    return JSON.stringify({ ...rest, sealed_secret: this.box.seal(secret, accountId, record.id) } satisfies StoredRecord);
  }

  private parseAll(accountId: string, records: string[]): Promise<WebhookRecord[]> {
    return Promise.all(records.map((raw) => this.parse(accountId, raw)));
  }

  /** A stored hook with its secret opened; one still in clear is sealed in Redis now (unless deleted or changed meanwhile). */
  private async parse(accountId: string, raw: string): Promise<WebhookRecord> {
    const { sealed_secret: sealed, secret: clear, ...rest } = JSON.parse(raw) as StoredRecord;
    if (sealed !== undefined) return { ...rest, secret: this.box.open(sealed, accountId, rest.id) };
    const record: WebhookRecord = { ...rest, secret: clear ?? '' };
    await pushScripts.run(this.redis, 'webhook-reseal', {
      keys: [keys.accountWebhooks(accountId)],
      args: [record.id, raw, this.stored(accountId, record)],
    });
    return record;
  }

  /** Deletes a hook and its counters; false when it did not exist. */
  async remove(accountId: string, hookId: string): Promise<boolean> {
    const results = await this.redis
      .multi()
      .hdel(keys.accountWebhooks(accountId), hookId)
      .del(keys.webhookStats(accountId, hookId))
      .srem(keys.accountWebhooksPaused(accountId), hookId)
      .exec();
    return results?.[0]?.[1] === 1;
  }

  /** Counts one attempt; the failure that reaches PAUSE_AFTER_FAILURES in a row pauses the hook. */
  async recordAttempt(accountId: string, hookId: string, outcome: AttemptOutcome, now: number): Promise<'recorded' | 'paused' | 'gone'> {
    const reply = await pushScripts.run(this.redis, 'webhook-outcome', {
      keys: [keys.webhookStats(accountId, hookId), keys.accountWebhooksPaused(accountId), keys.accountWebhooks(accountId)],
      args: [hookId, outcome.ok ? 1 : 0, outcome.status ?? '', outcome.error ?? '', now, PAUSE_AFTER_FAILURES],
    });
    return reply === 2 ? 'paused' : reply === 1 ? 'recorded' : 'gone';
  }
}
