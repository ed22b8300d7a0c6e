/**
 * One active feed per connector across the cluster: a Redis lease per venue. SET NX PX takes it,
 * a compare-and-renew script extends it every third of its life, a compare-and-delete gives it up
 * on stop. A standby tries every third of the lease, and at the moment the lease it found will lapse
 * when that comes sooner, so it takes over within the lease after the holder dies. A holder that
 * cannot renew (refused, or Redis unreachable until the lease would have lapsed) counts it as lost
 * and stops its connector.
 */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { redisOutages } from '../redis/connection.js';
import { keys } from '../redis/keys.js';
import { marketScripts } from './lua/market-scripts.js';

export interface FeedLeaseOptions {
  redis: RedisClient;
  /** What the lease guards, e.g. the venue name. */
  name: string;
  /** This process's id, stored as the lease value. */
  owner: string;
  leaseMs: number;
  logger: Logger;
  clock: Clock;
  onGained(): void | Promise<void>;
  onLost(reason: string): void | Promise<void>;
}

export class FeedLease {
  private held = false;
  /** Local bound of the lease: the send time of the last successful acquire or renew plus leaseMs. */
  private validUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private cycle: Promise<void> | undefined;
  private readonly key: string;

  constructor(private readonly options: FeedLeaseOptions) {
    this.key = keys.feedLease(options.name);
  }

  get isHeld(): boolean {
    return this.held;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      let next = this.third();
      this.cycle = this.tick()
        .then((ms) => {
          next = ms;
        })
        .finally(() => {
          this.cycle = undefined;
          this.schedule(next);
        });
    }, delayMs);
  }

  private third(): number {
    return Math.max(50, Math.floor(this.options.leaseMs / 3));
  }

  /** One acquire or renew; answers when to try next, ms. */
  private async tick(): Promise<number> {
    const { redis, owner, leaseMs, clock, logger, name } = this.options;
    const sentAt = clock.now();
    // a call that outlives a third of the lease is as good as failed
    const deadline = Math.max(50, Math.floor(leaseMs / 3));
    try {
      if (this.held) {
        if (sentAt >= this.validUntil) {
          await this.lose('not renewed in time');
          return this.third();
        }
        const renewed = await withTimeout(
          marketScripts.runInteger(redis, 'lease-renew', { keys: [this.key], args: [owner, leaseMs] }),
          deadline,
        );
        if (renewed === 1) this.validUntil = sentAt + leaseMs;
        else await this.lose('taken over or expired');
        return this.third();
      }
      let taken = await withTimeout(redis.set(this.key, owner, 'PX', leaseMs, 'NX'), deadline);
      let lapsesInMs = -1;
      if (taken !== 'OK') {
        const [holder, ttl] = await withTimeout(Promise.all([redis.get(this.key), redis.pttl(this.key)]), deadline);
        // an earlier SET that timed out here may still have landed: the lease is ours then
        if (holder === owner) taken = 'OK';
        lapsesInMs = ttl;
      }
      if (taken === 'OK') {
        // held even when stop() came meanwhile: stop() then releases it
        this.held = true;
        this.validUntil = sentAt + leaseMs;
        if (!this.running) return this.third();
        logger.info({ lease: name, owner }, 'lease gained');
        await this.options.onGained();
        return this.third();
      }
      // the holder's lease lapses in lapsesInMs unless renewed: try again right then if that is sooner than a third
      // (-2: it lapsed since the SET, so at once; -1, a lease without expiry, is not ours to hurry)
      if (lapsesInMs === -2) return 0;
      return lapsesInMs >= 0 ? Math.min(this.third(), lapsesInMs + 1) : this.third();
    } catch (error) {
      if (this.held && clock.now() >= this.validUntil) await this.lose(`renewal failed: ${(error as Error).message}`);
      else redisOutages.report(error, () => logger.warn({ err: error, lease: name }, 'lease check failed'));
    }
    return this.third();
  }

  private async lose(reason: string): Promise<void> {
    if (!this.held) return;
    this.held = false;
    this.options.logger.warn({ lease: this.options.name, owner: this.options.owner, reason }, 'lease lost');
    await this.options.onLost(reason);
  }

  /** Stops trying; a held lease is released after onLost has run, so a standby can take over at once. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.cycle;
    if (!this.held) return;
    this.held = false;
    await this.options.onLost('stopping');
    try {
      await marketScripts.runInteger(this.options.redis, 'lease-release', { keys: [this.key], args: [this.options.owner] });
      this.options.logger.info({ lease: this.options.name, owner: this.options.owner }, 'lease released');
    } catch (error) {
      this.options.logger.warn({ err: error, lease: this.options.name }, 'lease not released; it lapses on its own');
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
