/** The site's services over its store: mail, sign-in, sessions and key management. */
import type { Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../core/logger.js';
import type { AccountServices } from '../paper/accounts/account-services.js';
import { SiteKeyService } from './key-management.js';
import { SessionService } from './sessions.js';
import { SignInService } from './sign-in.js';
import { createSiteMailer, type SiteMailer } from './site-mail.js';
import type { SiteStore } from './site-store.js';

export interface SiteServices {
  mailer: SiteMailer;
  signIn: SignInService;
  sessions: SessionService;
  keys: SiteKeyService;
}

export interface SiteServiceDeps {
  config: Config;
  /** The site's records, built once in the domain (shared/domain.ts). */
  store: SiteStore;
  clock: Clock;
  accounts: AccountServices;
  logger: Logger;
}

export function createSiteServices({ config, store, clock, accounts, logger }: SiteServiceDeps): SiteServices {
  const mailer = createSiteMailer({
    smtpUrl: config.site.smtpUrl,
    devOutbox: config.site.devOutbox,
    from: config.site.mailFrom,
    store,
    logger,
  });
  const sessions = new SessionService(store, clock);
  const signIn = new SignInService({ store, mailer, accounts: accounts.accounts, sessions, clock });
  return { mailer, signIn, sessions, keys: new SiteKeyService(accounts.service, clock) };
}
