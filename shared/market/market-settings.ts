/**
 * The market's settings, declared for the composed config (shared/config.ts): where prices come from (the venues or
 * the sim), how long a price counts, and the feed's venues, universe and cadences.
 */
import Joi from 'joi';
import { venueUrlSchema, venueUrlsFrom, type MarketSource, type VenueUrls } from '../core/base-urls.js';
import { upstreamSchema, upstreamSettings, type UpstreamSettings } from './upstream-settings.js';
import { FEED_VENUES, LIVE_VENUE_URLS, type FeedVenue } from './venues/venue-urls.js';

export interface MarketSourceSettings {
  marketSource: MarketSource;
  simUrl: string | undefined;
  simPort: number;
}

export function marketSourceSchema(): Record<string, Joi.Schema> {
  return {
    MARKET_SOURCE: Joi.string().valid('live', 'sim').default('live'),
    SIM_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
    SIM_PORT: Joi.number().integer().min(0).max(65535).default(8090),
  };
}

export function marketSourceSettings(value: { MARKET_SOURCE: MarketSource; SIM_URL?: string; SIM_PORT: number }): MarketSourceSettings {
  return { marketSource: value.MARKET_SOURCE, simUrl: value.SIM_URL, simPort: value.SIM_PORT };
}

/** With MARKET_SOURCE=sim and no SIM_URL, the sim of `npm run sim` on this host. */
export function simBaseUrl(settings: MarketSourceSettings): string {
  return settings.simUrl ?? `http://127.0.0.1:${settings.simPort}`;
}

export interface PriceSettings {
  /** A venue's last price counts toward the aggregate only while younger than this. */
  priceFreshMs: number;
  /** With no fresh venue, the last known price is served as stale until it is this old; then 503. */
  priceStaleMaxMs: number;
  /**
   * A TradFi price (stock, metal, index, forex) its venues keep publishing unchanged for longer than this is stale
   * for opens (its underlying market is closed); 0 turns the rule off. Crypto never gets it.
   */
  tradfiFrozenMs: number;
  /** Hot read routes share answers in-process for this long. */
  quoteCacheMs: number;
  /** A stream with no message for this long is treated as down and reconnected. */
  streamSilenceMs: number;
  /** How long the feed lease lives without renewal; a standby takes over after it lapses. */
  feedLeaseMs: number;
}

export function priceSchema(): Record<string, Joi.Schema> {
  return {
    PRICE_FRESH_MS: Joi.number().integer().min(100).default(10_000),
    PRICE_STALE_MAX_MS: Joi.number().integer().min(0).default(300_000),
    // an hour: a live TradFi contract's last price rarely sits still that long; a weekend or holiday lasts a day or more
    TRADFI_FROZEN_MS: Joi.number().integer().min(0).default(3_600_000),
    QUOTE_CACHE_MS: Joi.number().integer().min(0).max(5_000).default(200),
    STREAM_SILENCE_MS: Joi.number().integer().min(100).default(30_000),
    FEED_LEASE_MS: Joi.number().integer().min(200).default(10_000),
  };
}

export function priceSettings(value: {
  PRICE_FRESH_MS: number;
  PRICE_STALE_MAX_MS: number;
  TRADFI_FROZEN_MS: number;
  QUOTE_CACHE_MS: number;
  STREAM_SILENCE_MS: number;
  FEED_LEASE_MS: number;
}): PriceSettings {
  return {
    priceFreshMs: value.PRICE_FRESH_MS,
    priceStaleMaxMs: value.PRICE_STALE_MAX_MS,
    tradfiFrozenMs: value.TRADFI_FROZEN_MS,
    quoteCacheMs: value.QUOTE_CACHE_MS,
    streamSilenceMs: value.STREAM_SILENCE_MS,
    feedLeaseMs: value.FEED_LEASE_MS,
  };
}

export interface FeedSettings {
  /** REST and WebSocket base URLs per exchange (BINANCE_REST_URL, BINANCE_WS_URL, ...). */
  venueUrls: Record<FeedVenue, VenueUrls>;
  /** The connectors this process runs when it is a feed (each still behind its lease). */
  feedVenues: FeedVenue[];
  /** How many symbols the feed follows: the top N USDT perpetuals by 24h quote volume across venues. */
  universeSize: number;
  /** How often the symbol universe is rebuilt from the venues' instruments and 24h tickers. */
  universeRefreshMs: number;
  /** How often the feed refreshes the majors' order books (fills that walk the book; 0: never). */
  depthRefreshMs: number;
  /** The feed writes aggregated prices (median across venues) at most this often per symbol. */
  aggregateThrottleMs: number;
  /** Upper bound of the reconnect backoff of exchange WebSockets (it starts at 250 ms, doubling, with jitter). */
  streamReconnectMaxMs: number;
  /** Timeout of one REST call to an exchange. */
  restTimeoutMs: number;
  /** How long a window of REST candle history fetched for the API stays cached in Redis. */
  historyCacheMs: number;
  /** The exchanges' budget for the REST calls users drive, and how long an empty history window is kept. */
  upstream: UpstreamSettings;
}

export function feedSchema(): Record<string, Joi.Schema> {
  return {
    ...venueUrlSchema(FEED_VENUES),
    FEED_VENUES: Joi.string()
      .pattern(/^\s*(binance|bybit|okx|bitget)\s*(,\s*(binance|bybit|okx|bitget)\s*)*$/)
      .default(FEED_VENUES.join(','))
      .messages({ 'string.pattern.base': 'must be a comma-separated list of binance, bybit, okx, bitget' }),
    UNIVERSE_SIZE: Joi.number().integer().min(1).max(2000).default(500),
    UNIVERSE_REFRESH_MS: Joi.number().integer().min(1000).default(300_000),
    AGGREGATE_THROTTLE_MS: Joi.number().integer().min(10).default(250),
    DEPTH_REFRESH_MS: Joi.number().integer().min(0).max(60_000).default(3000),
    STREAM_RECONNECT_MAX_MS: Joi.number().integer().min(250).default(30_000),
    REST_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
    HISTORY_CACHE_MS: Joi.number().integer().min(0).default(60_000),
    ...upstreamSchema(),
  };
}

function parseFeedVenues(raw: string): FeedVenue[] {
  const wanted = new Set(raw.split(',').map((s) => s.trim()));
  return FEED_VENUES.filter((venue) => wanted.has(venue));
}

interface FeedValues extends Record<string, unknown> {
  FEED_VENUES: string;
  UNIVERSE_SIZE: number;
  UNIVERSE_REFRESH_MS: number;
  AGGREGATE_THROTTLE_MS: number;
  DEPTH_REFRESH_MS: number;
  STREAM_RECONNECT_MAX_MS: number;
  REST_TIMEOUT_MS: number;
  HISTORY_CACHE_MS: number;
}

export function feedSettings(value: FeedValues, source: MarketSource, simUrl: string): FeedSettings {
  return {
    venueUrls: venueUrlsFrom(FEED_VENUES, LIVE_VENUE_URLS, value, source, simUrl),
    feedVenues: parseFeedVenues(value.FEED_VENUES),
    universeSize: value.UNIVERSE_SIZE,
    universeRefreshMs: value.UNIVERSE_REFRESH_MS,
    aggregateThrottleMs: value.AGGREGATE_THROTTLE_MS,
    depthRefreshMs: value.DEPTH_REFRESH_MS,
    streamReconnectMaxMs: value.STREAM_RECONNECT_MAX_MS,
    restTimeoutMs: value.REST_TIMEOUT_MS,
    historyCacheMs: value.HISTORY_CACHE_MS,
    upstream: upstreamSettings(value),
  };
}
