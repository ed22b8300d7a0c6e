/** The screener's settings, declared for the composed config (shared/config.ts). */
import Joi from 'joi';

export interface ScreenerSettings {
  /** How many USDT perpetuals the screener scores: the top N of the universe by volume. */
  screenerSize: number;
  /** Minutes per candle of the screener's indicators. */
  screenerIntervalMinutes: number;
}

export function screenerSchema(): Record<string, Joi.Schema> {
  return {
    SCREENER_SIZE: Joi.number().integer().min(1).max(200).default(50),
    SCREENER_INTERVAL: Joi.number().integer().valid(5, 15, 60, 240).default(60),
  };
}

export function screenerSettings(value: { SCREENER_SIZE: number; SCREENER_INTERVAL: number }): ScreenerSettings {
  return { screenerSize: value.SCREENER_SIZE, screenerIntervalMinutes: value.SCREENER_INTERVAL };
}
