/** The keyless budgets of the API's edge, declared for the composed config (shared/config.ts). */
import Joi from 'joi';

export interface EdgeLimitSettings {
  publicRateLimit: number;
  /** Requests with an unknown or revoked API key per minute per client IP; past it, 429 instead of 401. */
  badKeyRateLimit: number;
}

export function edgeLimitSchema(): Record<string, Joi.Schema> {
  return {
    PUBLIC_RATE_LIMIT: Joi.number().integer().min(1).default(60),
    BAD_KEY_RATE_LIMIT: Joi.number().integer().min(1).default(20),
  };
}

export function edgeLimitSettings(value: { PUBLIC_RATE_LIMIT: number; BAD_KEY_RATE_LIMIT: number }): EdgeLimitSettings {
  return { publicRateLimit: value.PUBLIC_RATE_LIMIT, badKeyRateLimit: value.BAD_KEY_RATE_LIMIT };
}
