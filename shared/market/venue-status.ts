/**
 * Whether a venue's contract trades now, from the status its instrument list gives it (docs/OPERATIONS.md, "TradFi market closures"). Pure.
 *
 * - Binance USDⓈ-M exchangeInfo `status`: TRADING trades; BREAK on a TradFi contract (TRADIFI_PERPETUAL) is its
 *   underlying market closed (weekends, holidays): listed, closed. Every other status (PENDING_TRADING, PRE_DELIVERING,
 *   DELIVERING, DELIVERED, PRE_SETTLE, SETTLING, CLOSE, and BREAK on a coin) is not listed.
 * - Bybit v5 instruments-info `status`: Trading trades; PreLaunch (pre-market), Settling (USDC perpetuals' settlement),
 *   Delivering and Closed are not listed (the list asked for without a status filter holds Trading rows only).
 *   Bybit has no status for a TradFi perpetual's closed session: it stays Trading (reduce-only on some weekends,
 *   its docs say), so there the price that stops moving is the signal (quote-freshness.ts isFrozenTradFi).
 * - OKX v5 public instruments `state`: live trades; suspend on a TradFi swap is listed, closed (its holders may still
 *   close, whatever the reason OKX suspended it); preopen and test, and suspend on a coin, are not listed.
 */
import type { AssetClass } from '../engine/fees.js';
import type { Listing } from './types.js';

export type StatusVenue = 'binance' | 'bybit' | 'okx';
export type ListingState = 'trading' | 'closed';

/** Each venue's spelling of a contract that trades, and of a TradFi contract whose underlying market is closed. */
const STATUSES: Readonly<Record<StatusVenue, { trading: string; closed: readonly string[] }>> = {
  binance: { trading: 'TRADING', closed: ['BREAK'] },
  bybit: { trading: 'Trading', closed: [] },
  okx: { trading: 'live', closed: ['suspend'] },
};

/** 'trading', 'closed' (a TradFi contract only: a coin's market never closes), or null: not listed. */
export function listingState(venue: StatusVenue, status: unknown, assetClass: AssetClass): ListingState | null {
  const known = STATUSES[venue];
  if (status === known.trading) return 'trading';
  return assetClass !== 'crypto' && known.closed.includes(status as string) ? 'closed' : null;
}

export function listing(symbol: string, assetClass: AssetClass, state: ListingState): Listing {
  return state === 'closed' ? { symbol, assetClass, closed: true } : { symbol, assetClass };
}
