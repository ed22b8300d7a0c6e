/** Request schemas of /replay: GET's interval and bars; POST's start (symbol, day, speed) or stop (act stop). */
import Joi from 'joi';
import { REPLAY_BARS, REPLAY_INTERVALS, REPLAY_SPEED } from '../../../shared/paper/replay/replay-math.js';
import type { FieldMeta } from '../../routing/validate.js';

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });

export const replayQuery = Joi.object({
  interval: Joi.number()
    .integer()
    .valid(...REPLAY_INTERVALS)
    .default(1)
    .description(`Bar size in minutes: ${REPLAY_INTERVALS.join(', ')} (aggregated from 1-minute candles); default 1`),
  bars: Joi.number()
    .integer()
    .min(REPLAY_BARS.min)
    .max(REPLAY_BARS.max)
    .default(REPLAY_BARS.default)
    .description(`Bars up to the cursor, ${REPLAY_BARS.min}-${REPLAY_BARS.max} (default ${REPLAY_BARS.default})`),
});

const SPEED_CODES = codes({
  'number.base': 'speed_invalid',
  'number.min': 'speed_invalid',
  'number.max': 'speed_invalid',
  'number.infinity': 'speed_invalid',
});

export const replayBody = Joi.object({
  act: Joi.string().trim().lowercase().valid('start', 'stop').default('start').description('start (default) or stop'),
  symbol: Joi.string()
    .trim()
    .max(40)
    .meta(codes({ 'string.base': 'symbol_required', 'string.empty': 'symbol_required', 'string.max': 'unknown_symbol' }))
    .description('start: the crypto perpetual to replay (BTC, ETHUSDT)'),
  day: Joi.string()
    .trim()
    .max(10)
    .meta(codes({ 'string.base': 'day_invalid', 'string.empty': 'day_invalid', 'string.max': 'day_invalid' }))
    .description('start: a complete past UTC day, YYYY-MM-DD'),
  speed: Joi.number()
    .min(REPLAY_SPEED.min)
    .max(REPLAY_SPEED.max)
    .meta(SPEED_CODES)
    .description(`start: replayed seconds per real second, ${REPLAY_SPEED.min}-${REPLAY_SPEED.max} (default ${REPLAY_SPEED.default})`),
});

export interface ReplayBody {
  act: 'start' | 'stop';
  symbol?: string;
  day?: string;
  speed?: number;
}
