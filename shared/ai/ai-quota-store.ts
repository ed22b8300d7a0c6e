/** The /ai daily read quota per account, in the account's slot. */
import type { RedisClient } from '../core/redis-client.js';
import { utcDay } from '../paper/accounts/plan-terms.js';
import { keys } from '../redis/keys.js';
import { aiScripts } from './lua/ai-scripts.js';

const DAY_MS = 86_400_000;

export interface QuotaTake {
  taken: boolean;
  /** Reads counted today, this one included when taken. */
  used: number;
}

export class AiQuotaStore {
  constructor(private readonly redis: RedisClient) {}

  /** Takes one read of the account's quota for the UTC day of `now`, unless `perDay` are used. */
  async take(accountId: string, perDay: number, now: number): Promise<QuotaTake> {
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    const [status, used] = await aiScripts.runStatus(this.redis, 'ai-quota-take', {
      keys: [keys.accountAiDay(accountId, utcDay(now))],
      args: [perDay, dayStart + 2 * DAY_MS],
    });
    return { taken: status === 1, used: Number(used) };
  }
}
