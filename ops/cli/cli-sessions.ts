/** The site's sessions from the CLI: `sessions end` and `keys revoke --end-sessions` end every session of an account. */
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { normalizeEmail } from '../../shared/paper/accounts/account-rules.js';
import type { AccountStore } from '../../shared/paper/accounts/account-store.js';
import { SessionService } from '../../shared/site/sessions.js';
import { SiteRedis } from '../../shared/site/site-records.js';
import type { EndSessions } from './cli-commands.js';

export interface SessionEnder {
  endSessions: EndSessions;
  /** Closes the site's connection (opened only when a command ends sessions). */
  close(): Promise<void>;
}

export function sessionEnder(redis: RedisClient, accounts: AccountStore, clock: Clock): SessionEnder {
  const records = new SiteRedis(redis, () => undefined);
  const sessions = new SessionService(records, clock);
  return {
    endSessions: async (rawEmail) => {
      const email = normalizeEmail(rawEmail);
      const account = await accounts.findByEmail(email);
      if (!account) throw new AppError('not_found', `no account for ${email}`);
      return { email, ended: await sessions.endAll(account.id) };
    },
    close: () => records.close(),
  };
}
