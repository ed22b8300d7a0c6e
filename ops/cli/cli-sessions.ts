/** The site's sessions from the CLI: `sessions end` and `keys revoke --end-sessions` end every session of an account. */
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import { normalizeEmail } from '../../shared/paper/accounts/account-rules.js';
import type { AccountStore } from '../../shared/paper/accounts/account-store.js';
import { SessionService } from '../../shared/site/sessions.js';
import type { SiteStore } from '../../shared/site/site-store.js';
import type { EndSessions } from './cli-commands.js';

export function sessionEnder(store: SiteStore, accounts: AccountStore, clock: Clock): EndSessions {
  const sessions = new SessionService(store, clock);
  return async (rawEmail) => {
    const email = normalizeEmail(rawEmail);
    const account = await accounts.findByEmail(email);
    if (!account) throw new AppError('not_found', `no account for ${email}`);
    return { email, ended: await sessions.endAll(account.id) };
  };
}
