/** The symbol universe: the most traded USDT perpetuals across venues, coins and TradFi alike. Pure. */
import { VENUE_PRIORITY, type UniverseEntry, type VenueMarket } from './types.js';

/**
 * Merges the venues' markets by canonical symbol, summing 24h quote volume, and keeps the `limit`
 * largest, largest first (ties by symbol name so the order is stable).
 */
export function buildUniverse(markets: readonly VenueMarket[], limit: number): UniverseEntry[] {
  const merged = new Map<string, UniverseEntry>();
  for (const m of markets) {
    if (!Number.isFinite(m.quoteVolume24h) || m.quoteVolume24h < 0) continue;
    const entry: UniverseEntry = merged.get(m.symbol) ?? { symbol: m.symbol, assetClass: m.assetClass, quoteVolume24h: 0, venues: [] };
    entry.quoteVolume24h += m.quoteVolume24h;
    // a venue that names a TradFi underlying outranks one (Bitget) that names none
    if (entry.assetClass === 'crypto') entry.assetClass = m.assetClass;
    if (m.closed) entry.closed = true;
    if (!entry.venues.includes(m.venue)) entry.venues.push(m.venue);
    merged.set(m.symbol, entry);
  }
  for (const entry of merged.values()) {
    entry.venues.sort((a, b) => VENUE_PRIORITY.indexOf(a) - VENUE_PRIORITY.indexOf(b));
  }
  return [...merged.values()]
    .sort((a, b) => b.quoteVolume24h - a.quoteVolume24h || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
    .slice(0, Math.max(0, limit));
}
