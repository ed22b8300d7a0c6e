/**
 * The majors' order books for fills that walk them (impact_bps_per_100k "book"): the feed stores
 * each major's top levels from one venue's REST depth endpoint every few seconds; fills read
 * the side they consume. A snapshot older than DEPTH_STALE_MS is not used: the fill then takes no
 * impact from the book, as a symbol without one does (the staleness bound, docs/guide/03-realism.md). Fills
 * keep a parsed snapshot in-process for DEPTH_CACHE_MS, so a burst of opens reads and parses each
 * book once per interval, not once per open.
 */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { DepthSide } from '../engine/fill-model.js';
import type { TradeSide } from '../engine/slippage.js';
import { keys } from '../redis/keys.js';

/** How many levels a side keeps. */
export const DEPTH_LEVELS = 50;
/** A snapshot older than this is not walked, ms. */
export const DEPTH_STALE_MS = 15_000;
/** How long a fill reuses a snapshot it read, ms. */
export const DEPTH_CACHE_MS = 1_000;

export interface DepthSnapshot {
  venue: string;
  /** When the venue's answer arrived, ms. */
  ts: number;
  /** Best first: bids descending, asks ascending; [price, size in the asset]. */
  bids: [number, number][];
  asks: [number, number][];
}

export class DepthStore {
  private readonly cache = new Map<string, { readAt: number; snapshot: DepthSnapshot | null }>();

  constructor(
    private readonly redis: RedisClient,
    private readonly clock: Clock,
  ) {}

  async save(symbol: string, snapshot: DepthSnapshot): Promise<void> {
    const trimmed = { ...snapshot, bids: snapshot.bids.slice(0, DEPTH_LEVELS), asks: snapshot.asks.slice(0, DEPTH_LEVELS) };
    await this.redis.set(keys.marketDepth(symbol), JSON.stringify(trimmed), 'PX', DEPTH_STALE_MS * 4);
  }

  async get(symbol: string): Promise<DepthSnapshot | null> {
    const raw = await this.redis.get(keys.marketDepth(symbol));
    return raw === null ? null : (JSON.parse(raw) as DepthSnapshot);
  }

  /** The side a trade consumes (asks for a buy), fresh; undefined without a fresh snapshot. */
  async side(symbol: string, trade: TradeSide): Promise<DepthSide | undefined> {
    const now = this.clock.now();
    let cached = this.cache.get(symbol);
    if (!cached || now - cached.readAt > DEPTH_CACHE_MS) {
      cached = { readAt: now, snapshot: await this.get(symbol) };
      this.cache.set(symbol, cached);
    }
    const { snapshot } = cached;
    if (!snapshot || now - snapshot.ts > DEPTH_STALE_MS) return undefined;
    return trade === 'buy' ? snapshot.asks : snapshot.bids;
  }
}
