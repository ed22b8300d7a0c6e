/** The replay's settings, declared for the composed config (shared/config.ts). */
import Joi from 'joi';

export interface ReplaySettings {
  /** How long a past day's 1-minute candles stay cached in Redis. */
  candleTtlS: number;
  /** Replay clocks (one long job per running replay) one worker process runs at once. */
  concurrency: number;
}

export function replaySchema(): Record<string, Joi.Schema> {
  return {
    REPLAY_CANDLE_TTL_S: Joi.number().integer().min(60).default(86_400),
    REPLAY_CONCURRENCY: Joi.number().integer().min(1).max(10_000).default(200),
  };
}

export function replaySettings(value: { REPLAY_CANDLE_TTL_S: number; REPLAY_CONCURRENCY: number }): ReplaySettings {
  return { candleTtlS: value.REPLAY_CANDLE_TTL_S, concurrency: value.REPLAY_CONCURRENCY };
}
