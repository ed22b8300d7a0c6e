/** The stored symbol universe: an ordered JSON list, a set for membership checks and a hash of volumes. */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import { isRecord, parseJsonRecord, toNumber } from './parse-utils.js';
import { isVenue, type UniverseEntry } from './types.js';
import { isAssetClass, storedBeforeClasses } from './venue-classes.js';

export interface StoredUniverse {
  updatedAt: number;
  symbols: UniverseEntry[];
}

/** Replaces list, set, volumes, classes and closed markets in one MULTI, so a reader never sees one without the others. */
export async function saveUniverse(redis: RedisClient, universe: StoredUniverse): Promise<void> {
  const multi = redis.multi();
  multi.set(keys.marketUniverseList(), JSON.stringify(universe));
  multi.del(keys.marketUniverseSet(), keys.marketUniverseVolumes(), keys.marketUniverseClasses(), keys.marketUniverseClosed());
  const closed = universe.symbols.filter((s) => s.closed).map((s) => s.symbol);
  if (closed.length > 0) multi.sadd(keys.marketUniverseClosed(), ...closed);
  if (universe.symbols.length > 0) {
    multi.sadd(keys.marketUniverseSet(), ...universe.symbols.map((s) => s.symbol));
    multi.hset(keys.marketUniverseVolumes(), Object.fromEntries(universe.symbols.map((s) => [s.symbol, s.quoteVolume24h])));
    multi.hset(keys.marketUniverseClasses(), Object.fromEntries(universe.symbols.map((s) => [s.symbol, s.assetClass])));
  }
  const results = await multi.exec();
  const failed = results?.find(([error]) => error);
  if (!results || failed) throw failed?.[0] ?? new Error('universe: MULTI aborted');
}

export function decodeUniverse(text: string | null): StoredUniverse | null {
  const raw = parseJsonRecord(text);
  if (!raw || !Array.isArray(raw.symbols)) return null;
  const symbols: UniverseEntry[] = [];
  for (const s of raw.symbols) {
    if (!isRecord(s) || typeof s.symbol !== 'string') continue;
    const venues = Array.isArray(s.venues) ? s.venues.filter(isVenue) : [];
    const assetClass = isAssetClass(s.assetClass) ? s.assetClass : storedBeforeClasses(s.symbol);
    const entry: UniverseEntry = { symbol: s.symbol, assetClass, quoteVolume24h: toNumber(s.quoteVolume24h) ?? 0, venues };
    if (s.closed === true) entry.closed = true;
    symbols.push(entry);
  }
  return { updatedAt: toNumber(raw.updatedAt) ?? 0, symbols };
}

export async function loadUniverse(redis: RedisClient): Promise<StoredUniverse | null> {
  return decodeUniverse(await redis.get(keys.marketUniverseList()));
}
