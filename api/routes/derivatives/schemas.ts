import Joi from 'joi';
import { symbolParam } from '../market/schemas.js';

export const MAX_LIVE_LIMIT = 1000;
export const DEFAULT_LIVE_LIMIT = 100;
export const MAX_RECENT_MINUTES = 43_200;
export const DEFAULT_RECENT_MINUTES = 60;
/** Events in /api/v1/feed. */
export const FEED_EVENTS = 100;

export const liveQuery = Joi.object({
  symbol: symbolParam(),
  limit: Joi.number()
    .integer()
    .min(1)
    .max(MAX_LIVE_LIMIT)
    .default(DEFAULT_LIVE_LIMIT)
    .description(`Events, newest first, 1..${MAX_LIVE_LIMIT}`),
});

export const recentQuery = Joi.object({
  symbol: symbolParam(),
  minutes: Joi.number()
    .integer()
    .min(1)
    .max(MAX_RECENT_MINUTES)
    .default(DEFAULT_RECENT_MINUTES)
    .description(`Window in minutes, 1..${MAX_RECENT_MINUTES} (30 days); buckets of 1, 5, 15, 60 or 240 minutes as the window grows`),
});

export const clusterQuery = Joi.object({ symbol: symbolParam() });
