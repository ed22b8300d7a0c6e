/** What the screener job stores and the API serves. */
import type { Setup, TrendLabel, Verdict } from './score.js';

export interface ScreenerRow {
  /** Canonical pair, e.g. BTCUSDT. */
  symbol: string;
  /** Close of the newest bar. */
  price: number;
  score: number;
  verdict: Verdict;
  /** Whether the score crossed a setup threshold (70 long, 30 short). */
  decisive: boolean;
  rsi: number;
  macd: { macd: number; signal: number; histogram: number };
  trend: TrendLabel;
  ema: { ema20: number; ema50: number; ema200: number | null };
  atr: number;
  setup: Setup | null;
}

export interface ScreenerResult {
  /** Candle timeframe of every indicator, e.g. 1h. */
  timeframe: string;
  intervalMinutes: number;
  /** Bars asked for per symbol. */
  bars: number;
  /** When the job computed this, ms. */
  computedAt: number;
  /** Symbols asked for (the top N of the universe by volume). */
  universe: number;
  /** Symbols left out: no candles, or too few bars to score. */
  skipped: string[];
  /** In universe order: largest 24h volume first. */
  rows: ScreenerRow[];
}

export const SCREENER_EVERY_MS = 60_000;
/** A screener older than this is served with stale: true (the job has not run for 5 runs). */
export const SCREENER_MAX_AGE_MS = 5 * SCREENER_EVERY_MS;

export function timeframeLabel(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}
