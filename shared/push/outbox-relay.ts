/**
 * The outbox relay (DESIGN principle 5): moves each account's outbox entries, in order, to the
 * account's pub/sub channel (the API pods' WebSocket fan-out) and to webhook jobs, at least once.
 *
 * - Wake-up: every money-moving script publishes its outbox key on pd:outbox; every relay hears it.
 *   The same script records the outbox in its slot's index (keys.outboxIndex), which the ack empties
 *   with the outbox: a periodic pass (one relay per period, under a lease renewed as it goes) reads
 *   the 16,384 index sets, not the keyspace, and finds the outboxes whose nudge nobody heard.
 * - One drainer per outbox: a lease per account, so an account's events leave in order while many
 *   relays share the accounts. A relay that dies leaves its lease to lapse; the entries are still
 *   at the head of the outbox and the next relay relays them again.
 * - At least once: an entry is removed (XDEL, under the lease) only after it was published and its
 *   webhook jobs were queued. Twice is harmless: webhook jobs have deterministic ids, and API pods
 *   drop an entry id they have already passed.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../core/redis-client.js';
import type { CloseCounter } from '../arena/arena-recorder.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { AccountStore } from '../paper/accounts/account-store.js';
import { effectivePlan } from '../paper/plans.js';
import type { WebhookDelivery, WebhookProducer } from '../queues/webhook-producer.js';
import { closeRedis, redisOutages } from '../redis/connection.js';
import { keys } from '../redis/keys.js';
import { SLOTS } from '../redis/slot-tags.js';
import { accountOfOutbox, type OutboxStore } from './outbox-store.js';
import { carriesEvents, channelMessage, mapOutboxEntry, webhookBody, type OutboxEntry, type RelayEntry } from './push-event.js';
import type { WebhookRecord, WebhookStore } from './webhook-store.js';

/** Entries read per round trip. */
const BATCH = 200;
/** Outboxes drained at once by one relay. */
const PARALLEL = 16;
/** Index sets (hash slots) read per step of a pass; the pass lease is renewed after each. */
const SLOTS_PER_STEP = 1024;

export interface OutboxRelayDeps {
  /** The domain's outbox store: the outboxes, their leases and index, the pass's report. */
  store: OutboxStore;
  /** Where the account channels' messages go out, when not the store's connection (orderedPublisher); the relay closes it on stop. */
  publisher?: RedisClient | null;
  /** A connection of its own for SUBSCRIBE; the relay closes it on stop. */
  subscriber: RedisClient;
  producer: WebhookProducer;
  hooks: WebhookStore;
  accounts: AccountStore;
  /** Counts the closes among the entries in the arena's season tallies (before they are removed: at least once, counted once). */
  arena: CloseCounter;
  clock: Clock;
  logger: Logger;
  leaseMs: number;
  scanMs: number;
}

const wants = (hook: WebhookRecord, entry: RelayEntry, event: string): boolean =>
  (hook.book === null || hook.book === entry.book) && (hook.events as string[]).includes(event);

export class OutboxRelay {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly queued = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  /** Accounts nudged while being drained: drained once more afterwards. */
  private readonly again = new Set<string>();
  private scanTimer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private stopped = false;

  private readonly store: OutboxStore;

  constructor(private readonly deps: OutboxRelayDeps) {
    this.store = deps.store;
  }

  async start(): Promise<void> {
    this.deps.subscriber.on('message', (_channel: string, key: string) => {
      const accountId = accountOfOutbox(key);
      if (accountId !== null) this.schedule(accountId);
    });
    await this.deps.subscriber.subscribe(keys.outboxNudgeChannel);
    // what was written while no relay listened: the first pass finds it
    this.scanTimer = setInterval(() => {
      this.scanning ??= this.scan().finally(() => (this.scanning = undefined));
    }, this.deps.scanMs);
    this.scanning = this.scan().finally(() => (this.scanning = undefined));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.scanTimer);
    this.queued.clear();
    await this.scanning;
    await Promise.allSettled([...this.running.values()]);
    await closeRedis(this.deps.subscriber, ...(this.deps.publisher ? [this.deps.publisher] : []));
  }

  /** Drains an account's outbox soon (now, if fewer than PARALLEL drains run). */
  private schedule(accountId: string): void {
    if (this.stopped) return;
    if (this.running.has(accountId)) {
      this.again.add(accountId);
      return;
    }
    this.queued.add(accountId);
    this.pump();
  }

  private pump(): void {
    for (const accountId of this.queued) {
      if (this.running.size >= PARALLEL) return;
      this.queued.delete(accountId);
      const run = this.drain(accountId)
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error, accountId }, 'outbox relay: drain failed; the next pass retries it'),
        )
        .finally(() => {
          this.running.delete(accountId);
          if (this.again.delete(accountId)) this.schedule(accountId);
          this.pump();
        });
      this.running.set(accountId, run);
    }
  }

  private async drain(accountId: string): Promise<void> {
    const { leaseMs } = this.deps;
    // held elsewhere: that relay heard the same nudge and drains until the outbox is empty
    if (!(await this.store.acquire(accountId, this.owner, leaseMs))) return;
    try {
      for (;;) {
        const entries = await this.store.head(accountId, BATCH);
        if (this.stopped) return;
        if (entries.length > 0) await this.relay(accountId, entries);
        // with no entries, only drops the empty outbox from the index
        const left = await this.store.ack(
          accountId,
          this.owner,
          entries.map((e) => e.id),
          leaseMs,
        );
        if (left === null) {
          this.deps.logger.warn({ accountId }, 'outbox relay: lease lost mid-drain; the new holder relays the rest');
          return;
        }
        if (left === 0) return;
      }
    } finally {
      await this.store.release(accountId, this.owner);
    }
  }

  private mapEntry(accountId: string, entry: OutboxEntry): RelayEntry | null {
    try {
      return mapOutboxEntry(entry);
    } catch (error) {
      // a malformed entry would block the account's outbox forever: logged with its fields, then removed
      this.deps.logger.error({ err: error, accountId, entry }, 'outbox relay: malformed outbox entry dropped');
      return null;
    }
  }

  /** Publishes the entries on the account's channel, then queues their webhook jobs. */
  private async relay(accountId: string, entries: OutboxEntry[]): Promise<void> {
    await this.deps.arena.record(accountId, entries);
    const mapped = entries
      .map((entry) => this.mapEntry(accountId, entry))
      .filter((e): e is RelayEntry => e !== null && (e.items.length > 0 || e.channel !== undefined));
    if (mapped.length === 0) return;
    const messages = mapped.map(channelMessage).filter(carriesEvents);
    await this.store.publish(
      accountId,
      messages.map((m) => JSON.stringify(m)),
      this.deps.publisher ?? undefined,
    );
    const hooks = await this.hooksOf(accountId);
    if (hooks.length === 0) return;
    const deliveries: WebhookDelivery[] = [];
    for (const entry of mapped) {
      for (const item of entry.items) {
        for (const hook of hooks) {
          if (!wants(hook, entry, item.event)) continue;
          deliveries.push({
            itemId: item.itemId,
            job: {
              accountId,
              hookId: hook.id,
              event: item.event,
              body: webhookBody(entry, item, hook.id),
              ...(entry.reqId ? { reqId: entry.reqId } : {}),
            },
          });
        }
      }
    }
    await this.deps.producer.enqueue(deliveries);
  }

  /** The active hooks of an account on a paid plan (a plan that ended stops its deliveries). */
  private async hooksOf(accountId: string): Promise<WebhookRecord[]> {
    const [hooks, account] = await Promise.all([this.deps.hooks.active(accountId), this.deps.accounts.get(accountId)]);
    if (hooks.length === 0 || account === null) return [];
    return effectivePlan(account.plan, this.deps.clock.now()).limits.maxWebhooks > 0 ? hooks : [];
  }

  /**
   * Finds outboxes holding entries (a missed nudge, a relay that died mid-drain) in the index and schedules them, a
   * step of slots at a time, renewing the pass lease after each (a slow pass is not overlapped by another relay's). A
   * complete pass records the oldest entry it saw: the relay lag the metrics report, whichever process is scraped.
   */
  private async scan(): Promise<void> {
    const leaseMs = Math.max(50, this.deps.scanMs - 50);
    try {
      if (!(await this.store.acquireScan(this.owner, leaseMs))) return;
      let oldestMs: number | null = null;
      // a step that failed (a slot moving between masters) leaves the pass incomplete: its lag is not reported
      let complete = true;
      for (let slot = 0; slot < SLOTS; slot += SLOTS_PER_STEP) {
        if (this.stopped) return;
        const step = await this.store.indexStep(slot, SLOTS_PER_STEP, (error) => {
          complete = false;
          redisOutages.report(error, () =>
            this.deps.logger.warn({ err: error }, 'outbox relay: a step of the pass failed; the next pass reads it'),
          );
        });
        for (const accountId of step.accounts) this.schedule(accountId);
        if (step.oldestMs !== null) oldestMs = Math.min(oldestMs ?? step.oldestMs, step.oldestMs);
        if (!(await this.store.renewScan(this.owner, leaseMs))) return;
      }
      if (complete) await this.store.recordScan({ at: this.deps.clock.now(), oldestMs });
    } catch (error) {
      redisOutages.report(error, () => this.deps.logger.warn({ err: error }, 'outbox relay: pass failed'));
    }
  }
}
