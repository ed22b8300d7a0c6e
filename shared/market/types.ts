/** The market data model shared by the feed (writer), the store (reader) and the venue parsers. */
import type { AssetClass } from '../engine/fees.js';
import { excerpt, toEpochMs, toNumber, toPrice } from './parse-utils.js';
import { FEED_VENUES, type FeedVenue } from './venues/venue-urls.js';

export type Venue = FeedVenue;

/** Venues in priority order: the candle series and REST history prefer the first one available. */
export const VENUE_PRIORITY: readonly Venue[] = FEED_VENUES;

/** 0 for the first venue; an unknown venue ranks after all. */
export function venueRank(venue: Venue | undefined): number {
  const rank = venue === undefined ? -1 : VENUE_PRIORITY.indexOf(venue);
  return rank < 0 ? VENUE_PRIORITY.length : rank;
}

/** Closed 1m candles kept per symbol: 24 hours. */
export const CANDLES_KEPT = 1440;

export function isVenue(value: unknown): value is Venue {
  return typeof value === 'string' && (VENUE_PRIORITY as readonly string[]).includes(value);
}

/** One price update from one venue, normalized. */
export interface VenueTick {
  venue: Venue;
  /** Canonical symbol, e.g. BTCUSDT. */
  symbol: string;
  price: number;
  /** 24h change in percent (1.5 = +1.5 %), when the venue tells. */
  changePct24h?: number;
  /** 24h traded value in USDT, when the venue tells. */
  quoteVolume24h?: number;
  /** Event time in ms. */
  ts: number;
}

/** A candle as the read side returns it. */
export interface Candle {
  /** Start of the minute (the interval), ms. */
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base-asset volume. */
  volume: number;
  /** false only for the candle still being built. */
  closed: boolean;
  /** The venue it came from, when known. */
  venue?: Venue;
}

/** One 1-minute candle from one venue, normalized. */
export interface VenueCandle extends Candle {
  venue: Venue;
  symbol: string;
}

/** The stored aggregate price of a symbol. */
export interface Quote {
  symbol: string;
  /** Median of the venues whose price was fresh when it was computed. */
  price: number;
  /** How many venues that median used. */
  venues: number;
  changePct24h: number | null;
  /** Time of the newest venue price used, ms. The caller decides fresh or stale from it. */
  ts: number;
  /** Since when the venues have published this same price, ms (quote-freshness.ts priceSince); absent on older quotes. */
  sinceTs?: number;
}

/** One symbol of the universe, as listSymbols() returns it. */
export interface UniverseEntry {
  symbol: string;
  /** From the listing venues' metadata (shared/market/venue-classes.ts). */
  assetClass: AssetClass;
  /** A listing venue says the underlying market is closed now (a TradFi contract on a weekend or holiday). */
  closed?: true;
  /** Sum of the 24h quote volume (USDT) over the venues listing it. */
  quoteVolume24h: number;
  venues: Venue[];
}

/** One active USDT-margined perpetual of one venue with its 24h quote volume. */
export interface VenueMarket {
  venue: Venue;
  symbol: string;
  assetClass: AssetClass;
  closed?: true;
  quoteVolume24h: number;
}

/** What a venue's stream parser yields for one frame. */
export interface FrameResult {
  ticks: VenueTick[];
  candles: VenueCandle[];
  /** Elements that looked like data but could not be read; logged and skipped by the connector. */
  issues: string[];
}

export function emptyFrame(): FrameResult {
  return { ticks: [], candles: [], issues: [] };
}

/**
 * The candles of one frame's rows for one symbol: each complete one into `out`, an issue for each
 * other row, and one for a frame without a symbol or rows (`what`: 'bybit: bad kline', ...).
 */
export function pushCandles(
  out: FrameResult,
  what: string,
  msg: Record<string, unknown>,
  symbol: string | null,
  toCandle: (row: unknown, symbol: string) => Partial<VenueCandle>,
): void {
  if (!symbol || !Array.isArray(msg.data)) {
    out.issues.push(`${what}: ${excerpt(msg)}`);
    return;
  }
  for (const row of msg.data) {
    const candle = toCandle(row, symbol);
    if (isCompleteCandle(candle)) out.candles.push(candle);
    else out.issues.push(`${what}: ${excerpt(row)}`);
  }
}

/** The message published on the ticks channel for every aggregate written. */
export interface PriceTickMessage {
  symbol: string;
  price: number;
  venues: number;
  ts: number;
}

/** Every field present: the parsers build candles field by field, then check them here. */
export function isCompleteCandle(c: Partial<VenueCandle>): c is VenueCandle {
  return c.venue !== undefined && c.symbol !== undefined && c.closed !== undefined && isOhlcv(c);
}

/** A tick with the 24h change (percent) and quote volume (USDT) its venue gave, each set only when given. */
export function venueTick(
  venue: Venue,
  symbol: string,
  price: number,
  ts: number,
  changePct: number | undefined,
  quoteVolume: number | undefined,
): VenueTick {
  const tick: VenueTick = { venue, symbol, price, ts };
  if (changePct !== undefined) tick.changePct24h = changePct;
  if (quoteVolume !== undefined) tick.quoteVolume24h = quoteVolume;
  return tick;
}

/** One contract a venue lists, with the class its metadata gives it. */
export interface Listing {
  symbol: string;
  assetClass: AssetClass;
  /** The venue lists the contract but says its underlying market is closed now. */
  closed?: true;
}

/** A venue's listed symbols with their 24h quote volumes (0 for one its tickers left out). */
export function withVolumes(venue: Venue, listings: readonly Listing[], volumes: ReadonlyMap<string, number>): VenueMarket[] {
  return listings.map((l) => ({ venue, ...l, quoteVolume24h: volumes.get(l.symbol) ?? 0 }));
}

/** The prices, time and volume of a candle. */
export type Ohlcv = Pick<Candle, 'openTime' | 'open' | 'high' | 'low' | 'close' | 'volume'>;

export function isOhlcv(c: Partial<Ohlcv>): c is Ohlcv {
  return (
    c.openTime !== undefined &&
    c.open !== undefined &&
    c.high !== undefined &&
    c.low !== undefined &&
    c.close !== undefined &&
    c.volume !== undefined
  );
}

/**
 * A candle row as the venues send one: [openTime, open, high, low, close, ...], with the base-asset
 * volume at `volumeAt`; nothing for a row too short to hold it.
 */
export function ohlcvFromRow(row: unknown, volumeAt = 5): Partial<Ohlcv> {
  if (!Array.isArray(row) || row.length <= volumeAt) return {};
  return {
    openTime: toEpochMs(row[0]),
    open: toPrice(row[1]),
    high: toPrice(row[2]),
    low: toPrice(row[3]),
    close: toPrice(row[4]),
    volume: toNumber(row[volumeAt]),
  };
}
