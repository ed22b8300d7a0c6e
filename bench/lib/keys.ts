/** Real API keys for the bench's load, created through the account service as a user's would be. */
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import type { PacedRequest } from './paced-load.js';

/** `keysPerAccount` Business keys for each of `accounts` new accounts (Business: the largest book cap and rate budget). */
export async function createKeys(redisUrl: string, accounts: number, keysPerAccount: number): Promise<string[]> {
  return (await createAccountKeys(redisUrl, accounts, keysPerAccount)).map((key) => key.apiKey);
}

export interface BenchKey {
  apiKey: string;
  accountId: string;
}

/** As createKeys, with each key's account. */
export async function createAccountKeys(redisUrl: string, accounts: number, keysPerAccount: number): Promise<BenchKey[]> {
  const redis = createRedis(redisUrl);
  try {
    const { service } = createAccountServices({ redis });
    const stamp = Date.now().toString(36);
    const out: BenchKey[] = [];
    for (let a = 0; a < accounts; a += 1) {
      const email = `bench-${stamp}-${accounts}-${a}@example.org`;
      for (let k = 0; k < keysPerAccount; k += 1) {
        const created = await service.createKey({ email, plan: 'business' });
        out.push({ apiKey: created.apiKey, accountId: created.account.id });
      }
    }
    return out;
  } finally {
    await closeRedis(redis);
  }
}

export const keyHeaders = (key: string): Record<string, string> => ({ 'content-type': 'application/json', 'x-api-key': key });

/** A market open of a small BTC long with `key`, as the capacity and soak loads send it. */
export const btcLongOpen = (key: string): PacedRequest => ({
  path: '/api/bot/v1/open',
  method: 'POST',
  headers: keyHeaders(key),
  body: JSON.stringify({ symbol: 'BTC', side: 'long', margin_usd: 20, leverage: 5 }),
});
