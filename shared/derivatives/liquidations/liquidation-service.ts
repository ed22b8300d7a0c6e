/**
 * What the liquidation routes ask for: the newest events, one symbol's events and dollar buckets,
 * 24 h totals per coin and per exchange. Reads only; the collector (feed role) writes.
 */
import type { Clock } from '../../core/clock.js';
import { unknownSymbol } from '../../core/errors.js';
import { baseOf, canonicalSymbol } from '../../market/canonical-symbol.js';
import { bucketize, recentBucketMinutes, type DollarBucket } from './bucket-math.js';
import { LIQUIDATION_COVERAGE } from './coverage.js';
import { LIQ_EXCHANGES, publicEvent, type LiquidationEvent } from './liquidation-event.js';
import { minuteWindow, TOTALS_WINDOW_MS, type LiquidationStore, type SideSums } from './liquidation-store.js';

/** Whether a canonical pair is one the service follows (the market's universe). */
export type SymbolCheck = (pair: string) => Promise<boolean>;

export interface RecentLiquidations {
  symbol: string;
  minutes: number;
  bucket_minutes: number;
  long_usd: number;
  short_usd: number;
  buckets: DollarBucket[];
  updatedAt: number;
}

export interface CoinTotals {
  symbol: string;
  pair: string;
  longUsd: number;
  shortUsd: number;
  totalUsd: number;
  longPct: number;
  longCount: number;
  shortCount: number;
}

export interface VenueTotals {
  exchange: string;
  totalUsd: number;
  sharePct: number;
  longUsd: number;
  shortUsd: number;
  longPct: number;
  shortPct: number;
  count: number;
  stream: string;
  coverage: string;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
const pct = (part: number, whole: number): number => (whole > 0 ? round2((part / whole) * 100) : 0);
const byNewest = (a: LiquidationEvent, b: LiquidationEvent): number => b.ts - a.ts;

export class LiquidationService {
  constructor(
    private readonly store: LiquidationStore,
    private readonly isFollowed: SymbolCheck,
    private readonly clock: Clock,
  ) {}

  /** The canonical pair of a followed symbol (or one liquidated in the last 24 h), or 404 unknown_symbol. */
  async resolveSymbol(input: string): Promise<string> {
    const pair = canonicalSymbol(input);
    if (pair && ((await this.isFollowed(pair)) || (await this.store.hasRecent(pair)))) return pair;
    throw unknownSymbol(input);
  }

  /** The newest events of all exchanges, newest first. */
  async feed(limit: number): Promise<{ events: LiquidationEvent[] }> {
    const events = await this.store.newest(limit);
    return { events: events.sort(byNewest).map(publicEvent) };
  }

  /** One symbol's newest events (24 h at most), newest first. */
  async live(input: string, limit: number): Promise<{ symbol: string; events: LiquidationEvent[]; updatedAt: number }> {
    const symbol = await this.resolveSymbol(input);
    const now = this.clock.now();
    const events = (await this.store.newestOf(symbol, limit)).filter((e) => e.ts >= now - TOTALS_WINDOW_MS).sort(byNewest);
    return { symbol, events: events.map(publicEvent), updatedAt: now };
  }

  /** Long and short dollars of one symbol over the last `minutes`, in buckets that grow with the window. */
  async recent(input: string, minutes: number): Promise<RecentLiquidations> {
    const symbol = await this.resolveSymbol(input);
    const now = this.clock.now();
    const { from, to } = minuteWindow(now, minutes);
    const size = recentBucketMinutes(minutes);
    const buckets = bucketize(await this.store.minutes(symbol, from, to), from, to, size);
    const long = buckets.reduce((s, b) => s + b.long_usd, 0);
    const short = buckets.reduce((s, b) => s + b.short_usd, 0);
    return { symbol, minutes, bucket_minutes: size, long_usd: long, short_usd: short, buckets, updatedAt: now };
  }

  /** 24 h totals per coin, largest first. */
  async coins(): Promise<{ window: string; updatedAt: number; totalUsd: number; longUsd: number; shortUsd: number; coins: CoinTotals[] }> {
    const { coins } = await this.store.totals();
    const rows = [...coins].map(([pair, sides]): CoinTotals => {
      const longUsd = round2(sides.long_liquidated.usd);
      const shortUsd = round2(sides.short_liquidated.usd);
      return {
        symbol: baseOf(pair),
        pair,
        longUsd,
        shortUsd,
        totalUsd: round2(longUsd + shortUsd),
        longPct: pct(longUsd, longUsd + shortUsd),
        longCount: sides.long_liquidated.count,
        shortCount: sides.short_liquidated.count,
      };
    });
    rows.sort((a, b) => b.totalUsd - a.totalUsd || a.pair.localeCompare(b.pair));
    const longUsd = round2(rows.reduce((s, r) => s + r.longUsd, 0));
    const shortUsd = round2(rows.reduce((s, r) => s + r.shortUsd, 0));
    return { window: '24h', updatedAt: this.clock.now(), totalUsd: round2(longUsd + shortUsd), longUsd, shortUsd, coins: rows };
  }

  /** 24 h totals, market share and long/short split of each of the nine exchanges, with what its stream covers. */
  async venues(): Promise<{ window: string; updatedAt: number; totalUsd: number; venues: VenueTotals[] }> {
    const { exchanges } = await this.store.totals();
    const zero: SideSums = { usd: 0, count: 0 };
    const sums = LIQ_EXCHANGES.map((exchange) => {
      const sides = exchanges.get(exchange);
      return { exchange, long: sides?.long_liquidated ?? zero, short: sides?.short_liquidated ?? zero };
    });
    const total = sums.reduce((s, v) => s + v.long.usd + v.short.usd, 0);
    const venues = sums.map(({ exchange, long, short }): VenueTotals => {
      const venueTotal = long.usd + short.usd;
      return {
        exchange,
        totalUsd: round2(venueTotal),
        sharePct: pct(venueTotal, total),
        longUsd: round2(long.usd),
        shortUsd: round2(short.usd),
        longPct: pct(long.usd, venueTotal),
        shortPct: pct(short.usd, venueTotal),
        count: long.count + short.count,
        ...LIQUIDATION_COVERAGE[exchange],
      };
    });
    venues.sort((a, b) => b.totalUsd - a.totalUsd);
    return { window: '24h', updatedAt: this.clock.now(), totalUsd: round2(total), venues };
  }
}
