/**
 * Readers the venue REST formats share: the list of a REST body is each venue's own, the walk over its
 * rows is the same. Pure.
 */
import { canonicalSymbol } from '../canonical-symbol.js';
import { isRecord } from '../parse-utils.js';
import type { AssetClass } from '../../engine/fees.js';
import { isOhlcv, ohlcvFromRow, type Candle, type Listing, type Ohlcv, type Venue } from '../types.js';
import { listing, type ListingState } from '../venue-status.js';

/** A venue's interval names from `minutes=name` pairs ("1=1m 60=1h"); a length the venue lacks is not listed. */
export function intervalNames(pairs: string): ReadonlyMap<number, string> {
  return new Map(
    pairs.split(' ').map((pair) => {
      const [minutes, name] = pair.split('=');
      return [Number(minutes), name];
    }),
  );
}

/** A map by symbol of a list's rows; `read` answers [symbol, value], a row missing either is left out. */
export function bySymbol<T>(
  rows: readonly unknown[],
  read: (row: Record<string, unknown>) => [string | null | undefined, T | undefined],
): Map<string, T> {
  const out = new Map<string, T>();
  for (const row of rows) {
    if (!isRecord(row)) continue;
    const [symbol, value] = read(row);
    if (symbol && value !== undefined) out.set(symbol, value);
  }
  return out;
}

/**
 * Candle rows ([openTime, open, high, low, close, ..., volume at `volumeAt`]) oldest first; `isClosed`
 * answers undefined for a row that cannot say, and that row is left out like a malformed one.
 */
export function candlesFromRows(
  venue: Venue,
  rows: readonly unknown[],
  isClosed: (candle: Ohlcv, row: unknown[]) => boolean | undefined,
  volumeAt = 5,
): Candle[] {
  const out: Candle[] = [];
  for (const row of rows) {
    const c = ohlcvFromRow(row, volumeAt);
    const closed = isOhlcv(c) && Array.isArray(row) ? isClosed(c, row) : undefined;
    if (isOhlcv(c) && closed !== undefined) out.push({ ...c, closed, venue });
  }
  return out.sort((a, b) => a.openTime - b.openTime);
}

/**
 * The listings of an instruments list; `read` answers the canonical symbol and class of a row the feed trades,
 * or null (a row whose symbol or class is null is left out); `stateOf` whether it trades or its market is closed
 * (null: left out), from the row's status (venue-status.ts); without one, every row trades.
 */
export function listingsOf(
  rows: readonly unknown[],
  read: (row: Record<string, unknown>) => readonly [string | null, AssetClass | null] | null,
  stateOf: (row: Record<string, unknown>, assetClass: AssetClass) => ListingState | null = () => 'trading',
): Listing[] {
  const out: Listing[] = [];
  for (const row of rows) {
    if (!isRecord(row)) continue;
    const [symbol, assetClass] = read(row) ?? [null, null];
    const state = symbol && assetClass && stateOf(row, assetClass);
    if (symbol && assetClass && state) out.push(listing(symbol, assetClass, state));
  }
  return out;
}

/** The canonical symbol when the venue's name already is one (BTCUSDT), else null. */
export function sameSymbol(name: unknown): string | null {
  const symbol = canonicalSymbol(name);
  return symbol === name ? symbol : null;
}
