/** The site's settings, declared for the composed config (shared/config.ts; docs/guide/07-site-mcp-ai.md, "The site"). */
import Joi from 'joi';
import { ConfigError } from '../core/config-error.js';

export interface SiteSettings {
  /** The site's public origin: sign-in links point at it and site calls must come from it; unset: the request's own host. */
  url: string | undefined;
  /** nodemailer's SMTP transport URL; unset: sign-in answers 503 mail_unavailable unless `devOutbox`. */
  smtpUrl: string | undefined;
  /**
   * MAIL_OUTBOX: without SMTP_URL, links go to the development outbox (logged and kept in Redis). Only when asked for
   * (the demo, the tests), and never with NODE_ENV=production: a link in a log signs anyone who reads it in.
   */
  devOutbox: boolean;
  mailFrom: string;
  /** The session cookie's Secure flag: on unless NODE_ENV=development or SITE_COOKIE_SECURE=false (the demo). */
  cookieSecure: boolean;
  /** Sign-in links asked per minute for one mailbox from one client IP, and from one client IP whatever the address. */
  signInPerEmail: number;
  signInPerIp: number;
  /** Sign-in links per day for one mailbox, from every client together. */
  signInPerEmailDay: number;
}

/** The site's variables; NODE_ENV sits among them (the cookie and the outbox read it, as do the webhook secrets). */
export function siteSchema(): Record<string, Joi.Schema> {
  return {
    SITE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
    SMTP_URL: Joi.string().uri({ scheme: ['smtp', 'smtps'] }),
    MAIL_FROM: Joi.string().max(200).default('Perpdesk <no-reply@perpdesk.local>'),
    MAIL_OUTBOX: Joi.boolean().truthy('1').falsy('0').default(false),
    NODE_ENV: Joi.string().allow(''),
    SITE_COOKIE_SECURE: Joi.boolean().truthy('1').falsy('0'),
    SIGNIN_EMAIL_RATE_LIMIT: Joi.number().integer().min(1).default(3),
    SIGNIN_IP_RATE_LIMIT: Joi.number().integer().min(1).default(10),
    SIGNIN_EMAIL_DAILY_LIMIT: Joi.number().integer().min(1).default(20),
  };
}

export function siteSettings(value: {
  SITE_URL?: string;
  SMTP_URL?: string;
  MAIL_FROM: string;
  MAIL_OUTBOX: boolean;
  NODE_ENV?: string;
  SITE_COOKIE_SECURE?: boolean;
  SIGNIN_EMAIL_RATE_LIMIT: number;
  SIGNIN_IP_RATE_LIMIT: number;
  SIGNIN_EMAIL_DAILY_LIMIT: number;
}): SiteSettings {
  if (value.MAIL_OUTBOX && value.NODE_ENV === 'production') {
    throw new ConfigError('MAIL_OUTBOX: the development outbox logs sign-in links; not with NODE_ENV=production (set SMTP_URL)');
  }
  return {
    url: value.SITE_URL === undefined ? undefined : new URL(value.SITE_URL).origin,
    smtpUrl: value.SMTP_URL,
    mailFrom: value.MAIL_FROM,
    devOutbox: value.MAIL_OUTBOX,
    cookieSecure: value.SITE_COOKIE_SECURE ?? value.NODE_ENV !== 'development',
    signInPerEmail: value.SIGNIN_EMAIL_RATE_LIMIT,
    signInPerIp: value.SIGNIN_IP_RATE_LIMIT,
    signInPerEmailDay: value.SIGNIN_EMAIL_DAILY_LIMIT,
  };
}
