/**
 * Gathers the brief /ai reasons over: the price, indicators on the asked interval (the screener's own
 * functions over the candles; the screener's last row when the candles are short), funding, open
 * interest, long/short, the last hour's liquidations and the nearest modelled clusters, the next macro
 * events. A part that cannot be read is left empty and named in `missing`; only an unknown symbol or a
 * symbol without a price refuses.
 */
import type { Clock } from '../core/clock.js';
import type { ClusterService } from '../derivatives/clusters/cluster-service.js';
import type { DerivativesService } from '../derivatives/derivatives-service.js';
import type { LiquidationService } from '../derivatives/liquidations/liquidation-service.js';
import { upcomingEvents } from '../macro/calendar/calendar-events.js';
import type { MarketService } from '../market/market-service.js';
import { WANTED_BARS } from '../screener/indicators.js';
import { rowFor } from '../screener/screener-runner.js';
import type { ScreenerService } from '../screener/screener-service.js';
import { timeframeLabel, type ScreenerRow } from '../screener/screener-types.js';
import type { Brief, BriefCluster, BriefEvent, BriefIndicators } from './brief.js';

export interface BriefSources {
  market: MarketService;
  screener: ScreenerService;
  derivatives: DerivativesService;
  liquidations: LiquidationService;
  clusters: ClusterService;
  clock: Clock;
}

/** The liquidation window of the brief. */
export const BRIEF_LIQUIDATION_MINUTES = 60;
const MACRO_DAYS = 7;
const MACRO_EVENTS = 3;
const CLUSTERS_EACH_SIDE = 2;
const HOUR_MS = 3_600_000;

const round = (x: number, dp: number): number => Number(x.toFixed(dp));

/** A read that may fail: its value, or null with its name added to `missing`. */
async function optional<T>(missing: string[], name: string, read: () => Promise<T | null | undefined>): Promise<T | null> {
  try {
    const value = await read();
    if (value === null || value === undefined) missing.push(name);
    return value ?? null;
  } catch {
    missing.push(name);
    return null;
  }
}

function indicatorsOf(row: ScreenerRow, timeframe: string, source: BriefIndicators['source'], price: number): BriefIndicators {
  return {
    timeframe,
    source,
    score: row.score,
    rsi: row.rsi,
    macd: row.macd,
    atr: row.atr,
    atr_pct: price > 0 ? round((row.atr / price) * 100, 4) : 0,
    trend: row.trend,
    ema: row.ema,
  };
}

/** The nearest clusters above and below the price, at most two of each. */
export function nearestClusters(
  clusters: readonly { price: number; side: 'long' | 'short'; est_notional: number }[],
  price: number,
): BriefCluster[] {
  const withDistance = clusters.map((c) => ({ ...c, distance_pct: round(((c.price - price) / price) * 100, 3) }));
  const nearest = (side: (d: number) => boolean) =>
    withDistance
      .filter((c) => side(c.distance_pct))
      .sort((a, b) => Math.abs(a.distance_pct) - Math.abs(b.distance_pct))
      .slice(0, CLUSTERS_EACH_SIDE);
  return [...nearest((d) => d >= 0), ...nearest((d) => d < 0)].sort((a, b) => Math.abs(a.distance_pct) - Math.abs(b.distance_pct));
}

export class BriefService {
  constructor(private readonly sources: BriefSources) {}

  async brief(symbol: string, intervalMinutes: number): Promise<Brief> {
    const { market, screener, derivatives, liquidations, clusters, clock } = this.sources;
    const quote = await market.quote(symbol);
    const { pair, price } = quote;
    const now = clock.now();
    const missing: string[] = [];
    const [fromCandles, screened, funding, openInterest, longShort, recent, modelled] = await Promise.all([
      optional(missing, 'candles', async () => rowFor(pair, await market.candles({ symbol: pair, intervalMinutes, limit: WANTED_BARS }))),
      optional(missing, 'screener', async () => {
        const run = await screener.latest();
        const row = run.rows.find((r) => r.symbol === pair);
        return row ? { row, timeframe: run.timeframe } : null;
      }),
      optional(missing, 'funding', async () => (await derivatives.funding()).pairs.find((row) => row.pair === pair)),
      optional(missing, 'open_interest', async () => (await derivatives.openInterest()).pairs.find((row) => row.pair === pair)),
      optional(missing, 'long_short', async () => (await derivatives.longShort()).pairs.find((row) => row.pair === pair)),
      optional(missing, 'liquidations', () => liquidations.recent(pair, BRIEF_LIQUIDATION_MINUTES)),
      optional(missing, 'clusters', () => clusters.clusters(pair)),
    ]);
    // the candles of the asked interval first; the screener's row (its own timeframe) when they are too few
    const indicators = fromCandles
      ? indicatorsOf(fromCandles, timeframeLabel(intervalMinutes), 'candles', price)
      : screened
        ? indicatorsOf(screened.row, screened.timeframe, 'screener', price)
        : null;
    if (indicators) missing.splice(0, missing.length, ...missing.filter((name) => name !== 'candles' && name !== 'screener'));
    const events: BriefEvent[] = upcomingEvents(now, MACRO_DAYS)
      .filter((event) => event.ts >= now)
      .slice(0, MACRO_EVENTS)
      .map((event) => ({
        ts: event.ts,
        iso: event.iso,
        type: event.type,
        title: event.title,
        impact: event.impact,
        in_hours: round((event.ts - now) / HOUR_MS, 2),
      }));
    return {
      symbol: pair,
      interval_minutes: intervalMinutes,
      generated_at: now,
      price: { price, change_24h_pct: quote.changePct24h, stale: quote.stale },
      indicators,
      derivatives: {
        funding_rate_pct: funding ? funding.ratePct : null,
        next_funding_time: funding ? funding.nextFundingTime : null,
        open_interest_usd: openInterest ? openInterest.oiUsd : null,
        long_pct: longShort ? longShort.longPct : null,
        short_pct: longShort ? longShort.shortPct : null,
      },
      liquidations: {
        window_minutes: BRIEF_LIQUIDATION_MINUTES,
        long_usd: recent?.long_usd ?? 0,
        short_usd: recent?.short_usd ?? 0,
        clusters: modelled ? nearestClusters(modelled.clusters, price) : [],
      },
      macro: { next_events: events },
      missing,
    };
  }
}
