/** An account's plan term in Redis (fields plan, plan_until and plan_source of its profile hash). */
import type { RedisClient } from '../../core/redis-client.js';
import { keys } from '../../redis/keys.js';
import { isPlanId, isPlanSource } from '../plans.js';
import { accountScripts } from './lua/account-scripts.js';
import { FREE_PLAN, type StoredPlan } from './plan-terms.js';

/**
 * Reads the stored fields; anything missing or unreadable is Free. A paid term without a readable
 * source was bought (terms stored before sources were kept were all set by `plans set`).
 */
export function parseStoredPlan(plan: string | null | undefined, until: string | null | undefined, source?: string | null): StoredPlan {
  if (!isPlanId(plan) || plan === 'free') return FREE_PLAN;
  const ms = Number(until);
  if (!Number.isFinite(ms) || until === null || until === undefined || until === '') return FREE_PLAN;
  return { plan, until: ms, source: isPlanSource(source) ? source : 'paid' };
}

const MAX_ATTEMPTS = 8;

export class PlanStore {
  constructor(private readonly redis: RedisClient) {}

  async get(accountId: string): Promise<StoredPlan> {
    const [plan, until, source] = await this.redis.hmget(keys.accountProfile(accountId), 'plan', 'plan_until', 'plan_source');
    return parseStoredPlan(plan, until, source);
  }

  /**
   * Moves the plan term with `next` (a pure function of the current term), atomically: when another
   * writer changed the term in between, the current term is read again and `next` applied to it.
   */
  async update(accountId: string, next: (current: StoredPlan) => StoredPlan): Promise<StoredPlan> {
    const key = keys.accountProfile(accountId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const [rawPlan, rawUntil, rawSource] = await this.redis.hmget(key, 'plan', 'plan_until', 'plan_source');
      const term = next(parseStoredPlan(rawPlan, rawUntil, rawSource));
      const set = await accountScripts.runInteger(this.redis, 'plan-set', {
        keys: [key],
        args: [
          rawPlan ?? '',
          rawUntil ?? '',
          rawSource ?? '',
          term.plan,
          term.until === null ? '' : String(term.until),
          term.until === null ? '' : (term.source ?? 'paid'),
        ],
      });
      if (set === 1) return term;
    }
    throw new Error(`the plan of ${accountId} kept changing; not updated`);
  }
}
