/** The settings of the REST calls users drive (history, replays): the venues' budget for them and how long answers are kept. */
import Joi from 'joi';

export interface UpstreamSettings {
  /** REST calls per minute per venue that user requests may cause, across every API pod (a token bucket's refill). */
  restPerMinute: number;
  /** The bucket's size: calls that may go out at once after a quiet spell. */
  restBurst: number;
  /** How long an empty history window (no exchange has candles there) is kept before an exchange is asked again. */
  emptyCacheMs: number;
}

export function upstreamSchema(): Record<string, Joi.Schema> {
  return {
    UPSTREAM_REST_PER_MIN: Joi.number().integer().min(1).max(100_000).default(120),
    UPSTREAM_REST_BURST: Joi.number().integer().min(1).max(10_000).default(20),
    HISTORY_EMPTY_CACHE_MS: Joi.number().integer().min(0).default(15_000),
  };
}

export function upstreamSettings(value: Record<string, unknown>): UpstreamSettings {
  return {
    restPerMinute: value.UPSTREAM_REST_PER_MIN as number,
    restBurst: value.UPSTREAM_REST_BURST as number,
    emptyCacheMs: value.HISTORY_EMPTY_CACHE_MS as number,
  };
}
