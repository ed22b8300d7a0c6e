/**
 * The exchanges' REST budget for the calls users drive (candle history, replays): one token bucket per venue in Redis,
 * shared by every API pod, so no client can get the service's address banned by an exchange, which would stop the live
 * feed too. The feed's own REST clients never draw on it. Past it a call throws upstream_busy with the seconds to wait.
 */
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import { marketScripts } from './lua/market-scripts.js';
import type { UpstreamSettings } from './upstream-settings.js';
import type { VenueRest } from './venues/venue-rest.js';

/** The answer while the budget is spent: 503 with the seconds until a call may go out again (Retry-After). */
export function upstreamBusy(retryAfterS: number): AppError {
  return new AppError('upstream_busy', `the exchanges are asked too often for history just now; retry in ${retryAfterS} s`, {
    retry_after: retryAfterS,
  });
}

export class UpstreamBudget {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: UpstreamSettings,
    private readonly clock: Clock,
  ) {}

  /** Takes one call of the venue's budget; throws AppError upstream_busy (retry_after, s) when it is spent. */
  async take(venue: string): Promise<void> {
    const [taken, waitMs] = await marketScripts.runStatus(this.redis, 'upstream-take', {
      keys: [keys.upstreamBudget(venue)],
      args: [this.clock.now(), this.settings.restPerMinute, this.settings.restBurst],
    });
    if (taken === 1) return;
    throw upstreamBusy(Math.max(1, Math.ceil(Number(waitMs) / 1000)));
  }
}

/** The venue's REST client with every candle request paid from the users' budget first. */
export function budgetedRest(rest: VenueRest, budget: UpstreamBudget): VenueRest {
  return {
    ...rest,
    async fetchCandles(symbol, minutes, endMs, limit, signal) {
      await budget.take(rest.venue);
      return rest.fetchCandles(symbol, minutes, endMs, limit, signal);
    },
  };
}
