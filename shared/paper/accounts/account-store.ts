/** Accounts in Redis: the global e-mail index and each account's profile hash. */
import type { RedisClient } from '../../core/redis-client.js';
import { keys } from '../../redis/keys.js';
import { newAccountId, type RandomBytes } from './api-key-format.js';
import { parseStoredPlan } from './plan-store.js';
import type { StoredPlan } from './plan-terms.js';

export interface Account {
  id: string;
  email: string;
  created: number;
  plan: StoredPlan;
}

/** The profile fields an Account is read from, in the order accountFromProfile takes them. */
export const PROFILE_FIELDS = ['email', 'created', 'plan', 'plan_until', 'plan_source'] as const;

/** An account from its profile fields (PROFILE_FIELDS, as HMGET answers them); null without a profile. */
export function accountFromProfile(
  accountId: string,
  [email, created, plan, until, source]: readonly (string | null | undefined)[],
): Account | null {
  if (email === null || email === undefined) return null;
  return { id: accountId, email, created: Number(created ?? 0), plan: parseStoredPlan(plan, until, source) };
}

export class AccountStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly random?: RandomBytes,
  ) {}

  /** The account's profile; null when there is none. */
  async get(accountId: string): Promise<Account | null> {
    return accountFromProfile(accountId, await this.redis.hmget(keys.accountProfile(accountId), ...PROFILE_FIELDS));
  }

  /** The account of a normalized e-mail, or null. */
  async findByEmail(email: string): Promise<Account | null> {
    const id = await this.redis.get(keys.accountByEmail(email));
    return id === null ? null : this.get(id);
  }

  /**
   * The account of a normalized e-mail, created (on Free) when there is none. The profile is written
   * before the e-mail index is claimed (SET NX), so an indexed account always has its profile, and
   * two racing callers agree on one account (the loser drops the profile it wrote).
   */
  async ensure(email: string, now: number): Promise<{ account: Account; created: boolean }> {
    const indexKey = keys.accountByEmail(email);
    for (;;) {
      const existing = await this.redis.get(indexKey);
      if (existing !== null) {
        const account = await this.get(existing);
        if (account) return { account, created: false };
        throw new Error(`account ${existing} of ${email} has no profile`);
      }
      const id = newAccountId(this.random);
      const profile = keys.accountProfile(id);
      await this.redis.hset(profile, { email, created: String(now), plan: 'free' });
      if ((await this.redis.set(indexKey, id, 'NX')) === 'OK') {
        return { account: { id, email, created: now, plan: { plan: 'free', until: null } }, created: true };
      }
      await this.redis.del(profile);
    }
  }
}
