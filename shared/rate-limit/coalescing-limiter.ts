import type { RedisClient } from '../core/redis-client.js';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { keys } from '../redis/keys.js';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the current window ends. */
  resetAt: number;
}

interface Waiter {
  resolve(decision: LimitDecision): void;
  reject(error: unknown): void;
}

interface Batch {
  waiters: Waiter[];
}

const WINDOW_SECONDS = 60;
/** Every budget is per minute: a fixed window that starts with the client's first call. */
export const RATE_WINDOW_MS = WINDOW_SECONDS * 1000;

/** The decision for the call with this ordinal (1 = first) in its window. */
export function windowDecision(ordinal: number, limit: number, resetAt: number): LimitDecision {
  return { allowed: ordinal <= limit, limit, remaining: Math.max(0, limit - ordinal), resetAt };
}

/**
 * A fixed one-minute window per client, counted in Redis by rate-limiter-flexible so every pod
 * shares one budget. Requests for the same client that arrive in the same event-loop turn are
 * counted with one INCRBY n and each gets its exact ordinal back, so the limit stays exact across
 * pods while the Redis work per request shrinks under load. Once a window is spent, this pod
 * answers locally until it resets: a fixed-window count only grows, so nothing can be allowed then.
 */
export class CoalescingLimiter {
  private readonly limiters = new Map<number, RateLimiterRedis>();
  private readonly pending = new Map<string, Batch>();
  private readonly spentUntil = new Map<string, number>();

  /**
   * Every limit in use is known up front: rate-limiter-flexible defines its Lua command on the
   * connection when a limiter is built, and ioredis breaks if that happens while auto-pipelined
   * commands are waiting, so no limiter is built once traffic flows.
   */
  constructor(
    private readonly redis: RedisClient,
    limits: readonly number[],
    private readonly now: () => number = Date.now,
  ) {
    for (const limit of new Set(limits)) this.limiters.set(limit, this.buildLimiter(limit));
  }

  consume(scopeKey: string, limit: number): Promise<LimitDecision> {
    const spentUntil = this.spentUntil.get(scopeKey);
    if (spentUntil !== undefined) {
      if (spentUntil > this.now()) return Promise.resolve({ allowed: false, limit, remaining: 0, resetAt: spentUntil });
      this.spentUntil.delete(scopeKey);
    }
    const batchKey = `${limit}|${scopeKey}`;
    return new Promise<LimitDecision>((resolve, reject) => {
      let batch = this.pending.get(batchKey);
      if (!batch) {
        const fresh: Batch = { waiters: [] };
        batch = fresh;
        this.pending.set(batchKey, fresh);
        setImmediate(() => {
          this.pending.delete(batchKey);
          void this.flush(scopeKey, limit, fresh);
        });
      }
      batch.waiters.push({ resolve, reject });
    });
  }

  private limiterFor(limit: number): RateLimiterRedis {
    const limiter = this.limiters.get(limit);
    if (!limiter) throw new Error(`rate limit ${limit} was not declared when the limiter was built`);
    return limiter;
  }

  private buildLimiter(limit: number): RateLimiterRedis {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: keys.rateLimitPrefix(limit),
      points: limit,
      duration: WINDOW_SECONDS,
      // With Redis unreachable each pod limits on its own rather than failing every request.
      insuranceLimiter: new RateLimiterMemory({ points: limit, duration: WINDOW_SECONDS }),
    });
  }

  private async flush(scopeKey: string, limit: number, batch: Batch): Promise<void> {
    const count = batch.waiters.length;
    let result: RateLimiterRes;
    try {
      result = await this.limiterFor(limit).consume(scopeKey, count);
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) {
        for (const waiter of batch.waiters) waiter.reject(outcome);
        return;
      }
      result = outcome;
    }
    const resetAt = this.now() + result.msBeforeNext;
    const firstOrdinal = result.consumedPoints - count + 1;
    batch.waiters.forEach((waiter, index) => waiter.resolve(windowDecision(firstOrdinal + index, limit, resetAt)));
    if (result.consumedPoints >= limit) this.spentUntil.set(scopeKey, resetAt);
  }
}
