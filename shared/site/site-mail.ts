/**
 * The site's mail: a sign-in link through nodemailer's SMTP transport when SMTP_URL is set, else the development outbox:
 * the link is written to the log (the one place a secret is logged on purpose: there is no other way to receive it) and
 * kept in Redis, where `npm run cli -- mail outbox` prints the newest ones.
 */
import { AppError } from '../core/errors.js';
import nodemailer from 'nodemailer';
import type { Logger } from '../core/logger.js';
import { siteKeys, type SiteRedis } from './site-records.js';

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
  /** True when mails go to the development outbox (no SMTP). */
  readonly outbox: boolean;
  sendSignIn(mail: SignInMail, now: number): Promise<void>;
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

export function createSiteMailer(deps: { smtpUrl: string | undefined; from: string; records: SiteRedis; logger: Logger }): SiteMailer {
  const { smtpUrl, from, records, logger } = deps;
  if (smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(smtpUrl);
    return {
      outbox: false,
      sendSignIn: async (mail) => {
        try {
          await transport.sendMail({ from, to: mail.to, subject: 'Your Perpdesk sign-in link', text: signInText(mail) });
        } catch (error) {
          // the error's code only: its message may quote the SMTP conversation, which carries the link
          logger.warn({ code: (error as NodeJS.ErrnoException).code ?? 'unknown' }, 'sign-in mail not sent: SMTP refused or unreachable');
          throw new AppError('mail_unavailable', 'the sign-in mail could not be sent; try again in a minute', { retry_after: 60 });
        }
      },
    };
  }
  return {
    outbox: true,
    sendSignIn: async (mail, now) => {
      const { client } = await records.records();
      const entry: OutboxMail = { to: mail.to, link: mail.link, ts: now };
      await client
        .multi()
        .lPush(siteKeys.outbox(), JSON.stringify(entry))
        .lTrim(siteKeys.outbox(), 0, OUTBOX_KEEP - 1)
        .exec();
      // the link sits in the URL's fragment, which the redaction of query secrets leaves alone on purpose (see above)
      logger.info({ to: mail.to, link: mail.link }, 'development outbox: sign-in link (no SMTP_URL)');
    },
  };
}

/** The newest outbox mails, newest first, for one address when given. */
export async function readOutbox(records: SiteRedis, email?: string, limit = 10): Promise<OutboxMail[]> {
  const { client } = await records.records();
  const mails = (await client.lRange(siteKeys.outbox(), 0, -1)).map((line) => JSON.parse(line) as OutboxMail);
  return mails.filter((mail) => email === undefined || mail.to === email).slice(0, limit);
}
