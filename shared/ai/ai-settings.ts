/** /ai's settings, declared for the composed config (shared/config.ts). */
import Joi from 'joi';

/** /ai: an OpenAI-compatible provider reasons over the brief when its three settings are given; else the built-in analyst answers. */
export interface AiSettings {
  provider: { baseUrl: string; model: string; apiKey: string } | undefined;
  /** The provider must answer within this long, or the built-in answer is used. */
  timeoutMs: number;
}

export function aiSchema(): Record<string, Joi.Schema> {
  return {
    AI_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
    AI_MODEL: Joi.string().trim().max(200),
    AI_API_KEY: Joi.string().trim().max(500),
    AI_TIMEOUT_MS: Joi.number().integer().min(100).default(8_000),
  };
}

export function aiSettings(value: { AI_BASE_URL?: string; AI_MODEL?: string; AI_API_KEY?: string; AI_TIMEOUT_MS: number }): AiSettings {
  return {
    provider:
      value.AI_BASE_URL && value.AI_MODEL && value.AI_API_KEY
        ? { baseUrl: value.AI_BASE_URL, model: value.AI_MODEL, apiKey: value.AI_API_KEY }
        : undefined,
    timeoutMs: value.AI_TIMEOUT_MS,
  };
}
