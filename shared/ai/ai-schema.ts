/** The JSON schemas of the /ai answer's plan and brief, held to their types by objectSchema. */
import {
  arrayOf,
  bodySchema,
  epochMs,
  integer,
  nullable,
  number,
  objectSchema,
  oneOfValues,
  string,
  type JsonSchema,
} from '../core/json-schema.js';
import type { Brief, BriefCluster, BriefEvent, BriefIndicators, TradePlan } from './brief.js';

export const tradePlanSchema: JsonSchema = objectSchema<TradePlan>(
  'A trade plan, given only when a setup is seen; prices in USDT',
  {
    bias: oneOfValues(['long', 'short']),
    entry: number(),
    stop: number(),
    targets: arrayOf(number(), '1R, 2R and 3R from the entry (R: the stop distance)'),
    leverage: number('At most 20: the stop costs about half the margin'),
  },
  {},
);

const indicatorsSchema = objectSchema<BriefIndicators>(
  'The screener indicators on the asked interval (source candles), or the screener last row (source screener)',
  {
    timeframe: string('e.g. 15m, 1h'),
    source: oneOfValues(['candles', 'screener']),
    score: integer('0-100'),
    rsi: number('RSI(14)'),
    macd: bodySchema({ macd: number(), signal: number(), histogram: number() }),
    atr: number('ATR(14), price units'),
    atr_pct: number('ATR as a percent of the price'),
    trend: oneOfValues(['up', 'down', 'sideways']),
    ema: bodySchema({ ema20: number(), ema50: number(), ema200: nullable(number()) }),
  },
  {},
);

const clusterSchema = objectSchema<BriefCluster>(
  'A modelled liquidation cluster',
  {
    price: number(),
    side: oneOfValues(['long', 'short'], 'the positions it would liquidate'),
    est_notional: number('USD'),
    distance_pct: number('from the price, percent; positive above'),
  },
  {},
);

const eventSchema = objectSchema<BriefEvent>(
  'A macro event',
  { ts: epochMs(), iso: string(), type: string(), title: string(), impact: integer('1 low, 2 medium, 3 high'), in_hours: number() },
  {},
);

export const briefSchema: JsonSchema = objectSchema<Brief>(
  'The evidence the answer rests on',
  {
    symbol: string(),
    interval_minutes: integer(),
    generated_at: epochMs(),
    price: bodySchema({ price: number(), change_24h_pct: nullable(number()), stale: { type: 'boolean' } }),
    indicators: nullable(indicatorsSchema),
    derivatives: bodySchema({
      funding_rate_pct: nullable(number('per funding interval, percent')),
      next_funding_time: nullable(epochMs()),
      open_interest_usd: nullable(number()),
      long_pct: nullable(number()),
      short_pct: nullable(number()),
    }),
    liquidations: bodySchema({
      window_minutes: integer(),
      long_usd: number(),
      short_usd: number(),
      clusters: arrayOf(clusterSchema),
    }),
    macro: bodySchema({ next_events: arrayOf(eventSchema) }),
    missing: arrayOf(string(), 'the parts that could not be read'),
  },
  {},
);
