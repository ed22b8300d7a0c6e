/** The exchanges the feed connects to and their live hosts (the URL rule itself is in shared/core/base-urls.ts). */
import type { VenueUrls } from '../../core/base-urls.js';

/** The exchanges the feed connects to, in candle/history priority order. */
export type FeedVenue = 'binance' | 'bybit' | 'okx' | 'bitget';
export const FEED_VENUES: readonly FeedVenue[] = ['binance', 'bybit', 'okx', 'bitget'];

/** The live exchange hosts. */
export const LIVE_VENUE_URLS: Record<FeedVenue, VenueUrls> = {
  binance: { rest: 'https://fapi.binance.com', ws: 'wss://fstream.binance.com' },
  bybit: { rest: 'https://api.bybit.com', ws: 'wss://stream.bybit.com' },
  okx: { rest: 'https://www.okx.com', ws: 'wss://ws.okx.com:8443' },
  bitget: { rest: 'https://api.bitget.com', ws: 'wss://ws.bitget.com' },
};
