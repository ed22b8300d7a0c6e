/** What the simulated market hands the venues to format: candles, a venue's quote and 24h statistics, the range reads. */
import type { SymbolSpec } from './symbols.js';

export type VenueId = 'binance' | 'bybit' | 'okx' | 'bitget';
export const VENUE_IDS: readonly VenueId[] = ['binance', 'bybit', 'okx', 'bitget'];
export type SimMode = 'random' | 'scripted';

export interface Candle {
  /** Open time in ms, a multiple of a minute. */
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  /** Base-asset volume. */
  v: number;
  /** Quote (USDT) volume. */
  q: number;
  /** Trade count. */
  n: number;
  /** First trade id. */
  f: number;
}

export interface VenueQuote {
  readonly spec: SymbolSpec;
  readonly venue: VenueId;
  readonly ts: number;
  readonly last: number;
  /** Venue-independent price, used as index price. */
  readonly index: number;
  readonly bid: number;
  readonly ask: number;
  readonly open24h: number;
  readonly high24h: number;
  readonly low24h: number;
  readonly volume24h: number;
  readonly quoteVolume24h: number;
  readonly changePct: number;
  readonly openTime: number;
  readonly count: number;
  readonly firstId: number;
  readonly lastId: number;
  readonly lastQty: number;
  readonly open1h: number;
  readonly openUtc0: number;
  readonly openUtc8: number;
  readonly openInterest: number;
  readonly fundingRate: number;
  readonly nextFundingTime: number;
  /** The symbol's funding schedule, ms between funding times (a multiple of the hour since the epoch). */
  readonly fundingIntervalMs: number;
}

export interface ClosedCandle {
  readonly symbol: string;
  readonly candle: Candle;
}

export interface CandleInput {
  o: number;
  h: number;
  l: number;
  c: number;
  v?: number;
}

export type SetCandleResult = { ok: true; kind: 'current' | 'past'; candle: Candle } | { ok: false; error: string };

export interface RangeQuery {
  from?: number;
  to?: number;
  limit: number;
  /** Which end of the range to keep when it holds more than `limit` candles. */
  anchor: 'start' | 'end';
}
