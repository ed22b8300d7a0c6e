/** An account's plan term in Redis (fields plan and plan_until of its profile hash). */
import type { Redis } from 'ioredis';
import { keys } from '../../redis/keys.js';
import { isPlanId } from '../plans.js';
import { runAccountScript } from './account-scripts.js';
import { FREE_PLAN, type StoredPlan } from './plan-terms.js';

/** Reads the stored fields; anything missing or unreadable is Free. */
export function parseStoredPlan(plan: string | null | undefined, until: string | null | undefined): StoredPlan {
  if (!isPlanId(plan) || plan === 'free') return FREE_PLAN;
  const ms = Number(until);
  return Number.isFinite(ms) && until !== null && until !== undefined && until !== '' ? { plan, until: ms } : FREE_PLAN;
}

const MAX_ATTEMPTS = 8;

export class PlanStore {
  constructor(private readonly redis: Redis) {}

  async get(accountId: string): Promise<StoredPlan> {
    const [plan, until] = await this.redis.hmget(keys.accountProfile(accountId), 'plan', 'plan_until');
    return parseStoredPlan(plan, until);
  }

  /**
   * Moves the plan term with `next` (a pure function of the current term), atomically: when another
   * writer changed the term in between, the current term is read again and `next` applied to it.
   */
  async update(accountId: string, next: (current: StoredPlan) => StoredPlan): Promise<StoredPlan> {
    const key = keys.accountProfile(accountId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const [rawPlan, rawUntil] = await this.redis.hmget(key, 'plan', 'plan_until');
      const term = next(parseStoredPlan(rawPlan, rawUntil));
      const set = await runAccountScript(this.redis, 'acctPlanSet', [key], [
        rawPlan ?? '',
        rawUntil ?? '',
        term.plan,
        term.until === null ? '' : String(term.until),
      ]);
      if (set === 1) return term;
    }
    throw new Error(`the plan of ${accountId} kept changing; not updated`);
  }
}
