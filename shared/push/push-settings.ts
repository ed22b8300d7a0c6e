/**
 * Push's settings, declared for the composed config (shared/config.ts): the whsink's budgets, where webhooks may go and
 * the key their secrets are stored under, and the timings of the stream, the outbox relay and webhook delivery.
 */
import Joi from 'joi';
import { ConfigError } from '../core/config-error.js';
import { webhookSecretsKey } from '../core/config-secrets.js';
import { webhookDeliverySchema } from './webhook-retry-policy.js';

export interface WhsinkSettings {
  /** Deliveries per minute per whsink token (its own budget, not the sender's IP's). */
  whsinkRateLimit: number;
  /** whsink addresses holding deliveries at once, across all tokens; a new one past it is refused (429 whsink_full). */
  whsinkMaxSinks: number;
  /** New whsink addresses one client (IP) may make per 15 minutes; past it, 429 whsink_client_limit. */
  whsinkClientMaxSinks: number;
}

export function whsinkSchema(): Record<string, Joi.Schema> {
  return {
    WHSINK_RATE_LIMIT: Joi.number().integer().min(1).default(60),
    WHSINK_MAX_SINKS: Joi.number().integer().min(1).default(200),
    WHSINK_CLIENT_MAX_SINKS: Joi.number().integer().min(1).default(20),
  };
}

export function whsinkSettings(value: {
  WHSINK_RATE_LIMIT: number;
  WHSINK_MAX_SINKS: number;
  WHSINK_CLIENT_MAX_SINKS: number;
}): WhsinkSettings {
  return {
    whsinkRateLimit: value.WHSINK_RATE_LIMIT,
    whsinkMaxSinks: value.WHSINK_MAX_SINKS,
    whsinkClientMaxSinks: value.WHSINK_CLIENT_MAX_SINKS,
  };
}

export interface WebhookTargetSettings {
  webhookAllowPrivate: boolean;
  /**
   * The AES-256 key webhook secrets are stored encrypted under (WEBHOOK_SECRETS_KEY, 32 bytes); required with
   * NODE_ENV=production, a fixed development key otherwise (shared/core/config-secrets.ts).
   */
  webhookSecretsKey: Buffer;
}

export function webhookTargetSchema(): Record<string, Joi.Schema> {
  return {
    WEBHOOK_ALLOW_PRIVATE: Joi.boolean().truthy('1').falsy('0').default(false),
    WEBHOOK_SECRETS_KEY: Joi.string().allow(''),
  };
}

export function webhookTargetSettings(value: {
  WEBHOOK_ALLOW_PRIVATE: boolean;
  WEBHOOK_SECRETS_KEY?: string;
  NODE_ENV?: string;
}): WebhookTargetSettings {
  const secretsKey = webhookSecretsKey(value.WEBHOOK_SECRETS_KEY, value.NODE_ENV === 'production');
  if (typeof secretsKey === 'string') throw new ConfigError(`WEBHOOK_SECRETS_KEY: ${secretsKey}`);
  return { webhookAllowPrivate: value.WEBHOOK_ALLOW_PRIVATE, webhookSecretsKey: secretsKey };
}

/** Timings of the WebSocket stream, the outbox relay and webhook delivery; tests shorten them. */
export interface PushSettings {
  /** The stream's tick: prices to every socket and the sweep of its book (the connected-book sweep). */
  streamTickMs: number;
  /** A socket is closed (code 4000, recycled) after this long; the client reconnects. */
  streamMaxAgeMs: number;
  /** A socket's slot in the per-account cap lapses this long after its pod last renewed it (a crashed pod's sockets); at least 3 ticks. */
  streamSlotTtlMs: number;
  /** One relay drains an account's outbox at a time under a lease this long (renewed while it works). */
  relayLeaseMs: number;
  /** How often a relay looks for outboxes whose nudge nobody heard. */
  relayScanMs: number;
  /** A receiver must answer 2xx within this long. */
  webhookTimeoutMs: number;
  /** First retry delay; each further retry doubles it (30 s, 1, 2, 4, 8 min). */
  webhookRetryBaseMs: number;
  /** How long a delivery job stays locked to its worker: a worker that dies mid-delivery gives it up after this. */
  webhookLockMs: number;
}

export function pushSchema(): Record<string, Joi.Schema> {
  return {
    STREAM_TICK_MS: Joi.number().integer().min(50).default(2_000),
    STREAM_MAX_AGE_MS: Joi.number()
      .integer()
      .min(1_000)
      .default(6 * 3_600_000),
    STREAM_SLOT_TTL_MS: Joi.number().integer().min(500).default(30_000),
    RELAY_LEASE_MS: Joi.number().integer().min(200).default(10_000),
    RELAY_SCAN_MS: Joi.number().integer().min(100).default(5_000),
    ...webhookDeliverySchema(),
  };
}

export function pushSettings(value: {
  STREAM_TICK_MS: number;
  STREAM_MAX_AGE_MS: number;
  STREAM_SLOT_TTL_MS: number;
  RELAY_LEASE_MS: number;
  RELAY_SCAN_MS: number;
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_RETRY_BASE_MS: number;
  WEBHOOK_LOCK_MS: number;
}): PushSettings {
  // sockets renew their slots on the tick's cadence: a slot must outlive a few ticks
  if (value.STREAM_SLOT_TTL_MS < 3 * value.STREAM_TICK_MS) throw new ConfigError('STREAM_SLOT_TTL_MS: must be at least 3 x STREAM_TICK_MS');
  return {
    streamTickMs: value.STREAM_TICK_MS,
    streamMaxAgeMs: value.STREAM_MAX_AGE_MS,
    streamSlotTtlMs: value.STREAM_SLOT_TTL_MS,
    relayLeaseMs: value.RELAY_LEASE_MS,
    relayScanMs: value.RELAY_SCAN_MS,
    webhookTimeoutMs: value.WEBHOOK_TIMEOUT_MS,
    webhookRetryBaseMs: value.WEBHOOK_RETRY_BASE_MS,
    webhookLockMs: value.WEBHOOK_LOCK_MS,
  };
}
