/**
 * The site's mail: a sign-in link through nodemailer's SMTP transport when SMTP_URL is set; else, only when asked for
 * (MAIL_OUTBOX: the demo, the tests), the development outbox: the link is written to the log (the one place a secret is
 * logged on purpose: there is no other way to receive it) and kept in Redis, where `npm run cli -- mail outbox` prints
 * the newest ones. Neither: no mail server, so sign-in answers 503 mail_unavailable and the link is written nowhere.
 */
import { AppError } from '../core/errors.js';
import nodemailer from 'nodemailer';
import type { Logger } from '../core/logger.js';
import type { SiteStore } from './site-store.js';

/** The development outbox keeps this many mails. */
export const OUTBOX_KEEP = 50;

export interface OutboxMail {
  to: string;
  link: string;
  ts: number;
}

export interface SignInMail {
  to: string;
  link: string;
  /** When the link stops working (epoch ms). */
  expires: number;
}

export interface SiteMailer {
  /** Where mails go: SMTP, the development outbox, or nowhere (sign-in refused). */
  readonly mode: 'smtp' | 'outbox' | 'none';
  sendSignIn(mail: SignInMail, now: number): Promise<void>;
}

const mailUnavailable = (message: string, retryAfter?: number): AppError =>
  new AppError('mail_unavailable', message, retryAfter === undefined ? {} : { retry_after: retryAfter });

/** Throws 503 mail_unavailable when this server cannot mail a link (no SMTP_URL and no development outbox). */
export function requireMail(mailer: SiteMailer): void {
  if (mailer.mode === 'none') throw mailUnavailable('sign-in by e-mail is not available on this server (no mail server is configured)');
}

function signInText(mail: SignInMail): string {
  const minutes = Math.round((mail.expires - Date.now()) / 60_000);
  return [
    'Open this link to sign in to Perpdesk:',
    '',
    mail.link,
    '',
    `It works once, for about ${minutes} minutes. If you did not ask for it, ignore this mail.`,
  ].join('\n');
}

export interface SiteMailerDeps {
  smtpUrl: string | undefined;
  /** Without SMTP, the development outbox (MAIL_OUTBOX); else no mail at all. */
  devOutbox: boolean;
  from: string;
  store: SiteStore;
  logger: Logger;
}

export function createSiteMailer(deps: SiteMailerDeps): SiteMailer {
  const { smtpUrl, from, store, logger } = deps;
  if (smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      mode: 'smtp',
      sendSignIn: async (mail) => {
        try {
          await transport.sendMail({ from, to: mail.to, subject: 'Your Perpdesk sign-in link', text: signInText(mail) });
        } catch (error) {
          // the error's code only: its message may quote the SMTP conversation, which carries the link
          logger.warn({ code: (error as NodeJS.ErrnoException).code ?? 'unknown' }, 'sign-in mail not sent: SMTP refused or unreachable');
          throw mailUnavailable('the sign-in mail could not be sent; try again in a minute', 60);
        }
      },
    };
  }
  if (!deps.devOutbox) {
    return {
      mode: 'none',
      sendSignIn: () => Promise.reject(mailUnavailable('no mail server is configured')),
    };
  }
  return {
    mode: 'outbox',
    sendSignIn: async (mail, now) => {
      const entry: OutboxMail = { to: mail.to, link: mail.link, ts: now };
      await store.pushOutbox(JSON.stringify(entry), OUTBOX_KEEP);
      // the link sits in the URL's fragment, which the redaction of query secrets leaves alone on purpose (see above)
      logger.info({ to: mail.to, link: mail.link }, 'development outbox: sign-in link (no SMTP_URL)');
    },
  };
}

/** The newest outbox mails, newest first, for one address when given. */
export async function readOutbox(store: SiteStore, email?: string, limit = 10): Promise<OutboxMail[]> {
  const mails = (await store.outbox()).map((line) => JSON.parse(line) as OutboxMail);
  return mails.filter((mail) => email === undefined || mail.to === email).slice(0, limit);
}
