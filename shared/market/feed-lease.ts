/**
 * One active feed per connector across the cluster: a Redis lease per venue. SET NX PX takes it,
 * a compare-and-renew script extends it every third of its life, a compare-and-delete gives it up
 * on stop. A standby keeps trying and takes over within about 4/3 of the lease after the holder
 * dies. A holder that cannot renew (refused, or Redis unreachable until the lease would have
 * lapsed) counts it as lost and stops its connector.
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
      this.cycle = this.tick().finally(() => {
        this.cycle = undefined;
        this.schedule(Math.max(50, Math.floor(this.options.leaseMs / 3)));
      });
    }, delayMs);
  }

  private async tick(): Promise<void> {
    const { redis, owner, leaseMs, clock, logger, name } = this.options;
    const sentAt = clock.now();
    // a call that outlives a third of the lease is as good as failed
    const deadline = Math.max(50, Math.floor(leaseMs / 3));
    try {
      if (this.held) {
        if (sentAt >= this.validUntil) {
          await this.lose('not renewed in time');
          return;
        }
        const renewed = await withTimeout(
          marketScripts.runInteger(redis, 'lease-renew', { keys: [this.key], args: [owner, leaseMs] }),
          deadline,
        );
        if (renewed === 1) this.validUntil = sentAt + leaseMs;
        else await this.lose('taken over or expired');
        return;
      }
      let taken = await withTimeout(redis.set(this.key, owner, 'PX', leaseMs, 'NX'), deadline);
      // an earlier SET that timed out here may still have landed: the lease is ours then
      if (taken !== 'OK' && (await withTimeout(redis.get(this.key), deadline)) === owner) taken = 'OK';
      if (taken === 'OK') {
        // held even when stop() came meanwhile: stop() then releases it
        this.held = true;
        this.validUntil = sentAt + leaseMs;
        if (!this.running) return;
        logger.info({ lease: name, owner }, 'lease gained');
        await this.options.onGained();
      }
    } catch (error) {
      if (this.held && clock.now() >= this.validUntil) await this.lose(`renewal failed: ${(error as Error).message}`);
      else redisOutages.report(error, () => logger.warn({ err: error, lease: name }, 'lease check failed'));
    }
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
