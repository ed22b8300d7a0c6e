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

/** A client's window as this pod knows it. */
interface KnownWindow {
  /** When it ends, as first estimated here (epoch ms). */
  endsAt: number;
  /** Its budget is used up: answered here until it ends. */
  spent: boolean;
}

const WINDOW_SECONDS = 60;
/** Every budget is per minute: a fixed window that starts with the client's first call. */
export const RATE_WINDOW_MS = WINDOW_SECONDS * 1000;
/**
 * Two estimates of a window's end this close are the same window: estimates differ by a reply's latency, while the next
 * window of a client ends at least a minute after this one.
 */
const SAME_WINDOW_MS = 5_000;
/** The known windows are pruned of ended ones once they number this many (and then at twice what is left). */
const PRUNE_AT = 10_000;

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
 * A window's end is estimated from the ms Redis says are left plus the reply's latency; the pod keeps
 * its first estimate per window, so X-RateLimit-Reset (epoch seconds) does not move a second between
 * calls of one window.
 */
export class CoalescingLimiter {
  private readonly limiters = new Map<number, RateLimiterRedis>();
  private readonly pending = new Map<string, Batch>();
  private readonly windows = new Map<string, KnownWindow>();
  private pruneAt = PRUNE_AT;

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

  /** How many clients' windows this pod remembers. */
  get knownWindows(): number {
    return this.windows.size;
  }

  consume(scopeKey: string, limit: number): Promise<LimitDecision> {
    const known = this.windows.get(scopeKey);
    if (known?.spent) {
      if (known.endsAt > this.now()) return Promise.resolve({ allowed: false, limit, remaining: 0, resetAt: known.endsAt });
      this.windows.delete(scopeKey);
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

  /** The client's window as it stands, counting nothing: not allowed once `limit` calls were counted in it. */
  async peek(scopeKey: string, limit: number): Promise<LimitDecision> {
    const window = await this.limiterFor(limit).get(scopeKey);
    const used = window?.consumedPoints ?? 0;
    // no window yet: one would end a minute from now; nothing is remembered of it
    const resetAt = window ? this.windowEnd(scopeKey, this.now() + window.msBeforeNext).endsAt : this.now() + RATE_WINDOW_MS;
    return { allowed: used < limit, limit, remaining: Math.max(0, limit - used), resetAt };
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
    const window = this.windowEnd(scopeKey, this.now() + result.msBeforeNext);
    const firstOrdinal = result.consumedPoints - count + 1;
    batch.waiters.forEach((waiter, index) => waiter.resolve(windowDecision(firstOrdinal + index, limit, window.endsAt)));
    if (result.consumedPoints >= limit) window.spent = true;
  }

  /** The client's window for an estimate of its end: the one known when the estimate is of it, else a new one. */
  private windowEnd(scopeKey: string, estimate: number): KnownWindow {
    const known = this.windows.get(scopeKey);
    if (known && Math.abs(known.endsAt - estimate) < SAME_WINDOW_MS) return known;
    if (this.windows.size >= this.pruneAt) this.pruneEnded();
    const window = { endsAt: estimate, spent: false };
    this.windows.set(scopeKey, window);
    return window;
  }

  /** Forgets the windows that ended: a client never seen again is not kept. */
  private pruneEnded(): void {
    const now = this.now();
    for (const [scopeKey, window] of this.windows) if (window.endsAt <= now) this.windows.delete(scopeKey);
    this.pruneAt = Math.max(PRUNE_AT, 2 * this.windows.size);
  }
}
