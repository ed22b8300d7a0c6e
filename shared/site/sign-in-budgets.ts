/**
 * The budgets of POST /api/auth/start. What a stranger can spend for a victim is keyed on (mailbox, client), so asking
 * for links to someone's address from elsewhere never holds back their own requests; one daily cap per mailbox, larger,
 * bounds the mail one address can be sent however many clients ask. Mailboxes are normalized (mailbox.ts) and kept as
 * digests: no address in a key name.
 */
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { RedisClient } from '../core/redis-client.js';
import type { CoalescingLimiter, LimitDecision } from '../rate-limit/coalescing-limiter.js';
import { keys } from '../redis/keys.js';
import { mailboxOf } from './mailbox.js';
import { secretDigest } from './sign-in.js';

const DAY_SECONDS = 86_400;

export interface SignInLimits {
  /** Links per minute from one client, whatever the address. */
  perClient: number;
  /** Links per minute for one mailbox from one client. */
  perMailboxClient: number;
  /** Links per day for one mailbox, from every client together. */
  perMailboxDay: number;
}

export class SignInBudgets {
  private readonly daily: RateLimiterRedis;

  /** Built with the app, before traffic: rate-limiter-flexible defines its script on the connection here. */
  constructor(
    private readonly limiter: CoalescingLimiter,
    redis: RedisClient,
    private readonly limits: SignInLimits,
    private readonly clock: Clock,
  ) {
    this.daily = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: keys.signInDailyPrefix(),
      points: limits.perMailboxDay,
      duration: DAY_SECONDS,
    });
  }

  /** Charges one link for the address asked by the client; 429 rate_limited (with retry_after) past any budget. */
  async charge(email: string, client: string): Promise<void> {
    const mailbox = secretDigest(mailboxOf(email));
    // both minute budgets in one round trip; each counts the request whether or not the other refuses it
    const minute = await Promise.all([
      this.limiter.consume(`signin:ip:${client}`, this.limits.perClient),
      this.limiter.consume(`signin:mailbox:${mailbox}:${client}`, this.limits.perMailboxClient),
    ]);
    const refused = minute.find((decision) => !decision.allowed);
    if (refused) throw this.refusal(refused.limit, refused.resetAt - this.clock.now(), 'minute');
    // the day's cap counts only what the minute budgets let through: a refused flood spends nobody's day
    try {
      await this.daily.consume(mailbox);
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes)) throw outcome;
      throw this.refusal(this.limits.perMailboxDay, outcome.msBeforeNext, 'day');
    }
  }

  private refusal(limit: LimitDecision['limit'], waitMs: number, per: 'minute' | 'day'): AppError {
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    return new AppError('rate_limited', `too many sign-in links asked for (${limit} per ${per}); retry in ${retryAfter} s`, {
      limit,
      retry_after: retryAfter,
    });
  }
}
