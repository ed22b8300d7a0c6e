/** The site's services over one Redis server: records through redis-om, mail, sign-in, sessions and key management. */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../core/logger.js';
import type { AccountServices } from '../paper/accounts/account-services.js';
import { SiteKeyService } from './key-management.js';
import { SessionService } from './sessions.js';
import { SignInService } from './sign-in.js';
import { createSiteMailer, type SiteMailer } from './site-mail.js';
import { SiteRedis } from './site-records.js';

export interface SiteServices {
  records: SiteRedis;
  mailer: SiteMailer;
  signIn: SignInService;
  sessions: SessionService;
  keys: SiteKeyService;
  /** Closes the site's own connection (opened on first use). */
  close(): Promise<void>;
}

export interface SiteServiceDeps {
  config: Config;
  /** The process's ioredis connection: the site's client connects to the same server and database. */
  redis: RedisClient;
  clock: Clock;
  accounts: AccountServices;
  logger: Logger;
}

export function createSiteServices({ config, redis, clock, accounts, logger }: SiteServiceDeps): SiteServices {
  const records = new SiteRedis(redis, (error) => logger.warn({ err: error }, 'site: redis connection error'));
  const mailer = createSiteMailer({
    smtpUrl: config.site.smtpUrl,
    devOutbox: config.site.devOutbox,
    from: config.site.mailFrom,
    records,
    logger,
  });
  const sessions = new SessionService(records, clock);
  const signIn = new SignInService({ records, mailer, accounts: accounts.accounts, sessions, clock });
  return { records, mailer, signIn, sessions, keys: new SiteKeyService(accounts.service, clock), close: () => records.close() };
}
