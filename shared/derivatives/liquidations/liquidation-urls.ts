/**
 * Configuration of the liquidation collector and the derivatives jobs, merged into shared/config.ts: the
 * exchanges read only for liquidations (their base URLs follow the venue pattern: live hosts, or
 * `${SIM_URL}/<exchange>` in sim mode, each overridable with <EXCHANGE>_REST_URL / <EXCHANGE>_WS_URL),
 * which connectors a feed runs, and the collector's limits.
 */
import Joi from 'joi';
import { venueUrlSchema, venueUrlsFrom, type MarketSource, type VenueUrls } from '../../core/base-urls.js';
import { FEED_VENUES, type FeedVenue } from '../../market/venues/venue-urls.js';

/** Exchanges read only for their liquidation streams (the four feed venues are read too). */
export type LiquidationOnlyVenue = 'gate' | 'bitmex' | 'deribit' | 'htx' | 'bitfinex';
export const LIQUIDATION_ONLY_VENUES: readonly LiquidationOnlyVenue[] = ['gate', 'bitmex', 'deribit', 'htx', 'bitfinex'];
/** The nine exchanges of the liquidation collector, lowercase as in events and routes. */
export type LiquidationExchange = FeedVenue | LiquidationOnlyVenue;
export const LIQUIDATION_EXCHANGES: readonly LiquidationExchange[] = [...FEED_VENUES, ...LIQUIDATION_ONLY_VENUES];

/** The live hosts (paths like /v4/ws/usdt are appended). */
const LIVE_LIQUIDATION_URLS: Record<LiquidationOnlyVenue, VenueUrls> = {
  gate: { rest: 'https://api.gateio.ws', ws: 'wss://fx-ws.gateio.ws' },
  bitmex: { rest: 'https://www.bitmex.com', ws: 'wss://ws.bitmex.com' },
  deribit: { rest: 'https://www.deribit.com', ws: 'wss://www.deribit.com' },
  htx: { rest: 'https://api.hbdm.com', ws: 'wss://api.hbdm.com' },
  bitfinex: { rest: 'https://api-pub.bitfinex.com', ws: 'wss://api-pub.bitfinex.com' },
};

const names = LIQUIDATION_EXCHANGES.join('|');

/** The environment variables of this part, merged into the config schema. */
export function liquidationSchema(): Record<string, Joi.Schema> {
  return {
    ...venueUrlSchema(LIQUIDATION_ONLY_VENUES),
    LIQ_VENUES: Joi.string()
      .pattern(new RegExp(`^\\s*(none|(${names})\\s*(,\\s*(${names})\\s*)*)$`))
      .default(LIQUIDATION_EXCHANGES.join(','))
      .messages({ 'string.pattern.base': `must be none or a comma-separated list of ${LIQUIDATION_EXCHANGES.join(', ')}` }),
    LIQ_FLUSH_MS: Joi.number().integer().min(10).max(10_000).default(250),
    LIQ_DEDUP_MS: Joi.number().integer().min(10_000).max(86_400_000).default(1_200_000),
    LIQ_RAW_MAX: Joi.number().integer().min(1_000).max(10_000_000).default(500_000),
    DERIV_PAIRS: Joi.number().integer().min(1).max(1000).default(160),
  };
}

export interface LiquidationSettings {
  liquidationUrls: Record<LiquidationOnlyVenue, VenueUrls>;
  liqVenues: LiquidationExchange[];
  liqFlushMs: number;
  liqDedupMs: number;
  liqRawMax: number;
  derivPairs: number;
}

/** The settings from the validated environment. */
export function liquidationSettings(value: Record<string, unknown>, source: MarketSource, simUrl: string): LiquidationSettings {
  const wanted = new Set(
    String(value.LIQ_VENUES)
      .split(',')
      .map((s) => s.trim()),
  );
  return {
    liquidationUrls: venueUrlsFrom(LIQUIDATION_ONLY_VENUES, LIVE_LIQUIDATION_URLS, value, source, simUrl),
    liqVenues: LIQUIDATION_EXCHANGES.filter((venue) => wanted.has(venue)),
    liqFlushMs: Number(value.LIQ_FLUSH_MS),
    liqDedupMs: Number(value.LIQ_DEDUP_MS),
    liqRawMax: Number(value.LIQ_RAW_MAX),
    derivPairs: Number(value.DERIV_PAIRS),
  };
}
