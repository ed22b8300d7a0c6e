/** The status page's settings, declared for the composed config (shared/config.ts). */
import Joi from 'joi';
import { FEED_STALE_MS } from './status-rules.js';

export interface StatusSettings {
  /** How often the status sampler (one job per cluster) counts every component up or down for the status page's days. */
  statusSampleMs: number;
  /** A feed connector silent for longer than this reads down on the status page. */
  statusFeedStaleMs: number;
  /** How long a pod serves one /api/status answer. */
  statusCacheMs: number;
}

export function statusSchema(): Record<string, Joi.Schema> {
  return {
    STATUS_SAMPLE_MS: Joi.number().integer().min(500).default(15_000),
    STATUS_FEED_STALE_MS: Joi.number().integer().min(1_000).default(FEED_STALE_MS),
    STATUS_CACHE_MS: Joi.number().integer().min(0).default(10_000),
  };
}

export function statusSettings(value: { STATUS_SAMPLE_MS: number; STATUS_FEED_STALE_MS: number; STATUS_CACHE_MS: number }): StatusSettings {
  return { statusSampleMs: value.STATUS_SAMPLE_MS, statusFeedStaleMs: value.STATUS_FEED_STALE_MS, statusCacheMs: value.STATUS_CACHE_MS };
}
