/** The evidence /ai reasons over for one symbol and interval, and what an analyst answers from it. Types only. */
import type { TrendLabel } from '../screener/score.js';

export interface BriefIndicators {
  /** The candle timeframe they were computed on (15m, 1h...). */
  timeframe: string;
  /** candles: computed now on the asked interval; screener: the screener's last run (its own timeframe). */
  source: 'candles' | 'screener';
  /** The screener's 0-100 technical score (trend, MACD, RSI weighted). */
  score: number;
  rsi: number;
  macd: { macd: number; signal: number; histogram: number };
  /** ATR(14) in price units, and as a percent of the price. */
  atr: number;
  atr_pct: number;
  trend: TrendLabel;
  ema: { ema20: number; ema50: number; ema200: number | null };
}

export interface BriefCluster {
  price: number;
  /** The positions that level would liquidate. */
  side: 'long' | 'short';
  est_notional: number;
  /** Signed distance from the price, percent (above the price: positive). */
  distance_pct: number;
}

export interface BriefEvent {
  ts: number;
  iso: string;
  type: string;
  title: string;
  /** 1 low, 2 medium, 3 high. */
  impact: number;
  in_hours: number;
}

export interface Brief {
  symbol: string;
  /** Minutes per candle of the question's interval. */
  interval_minutes: number;
  generated_at: number;
  price: { price: number; change_24h_pct: number | null; stale: boolean };
  indicators: BriefIndicators | null;
  derivatives: {
    /** Per funding interval, percent; positive: longs pay shorts. */
    funding_rate_pct: number | null;
    next_funding_time: number | null;
    open_interest_usd: number | null;
    long_pct: number | null;
    short_pct: number | null;
  };
  liquidations: {
    window_minutes: number;
    long_usd: number;
    short_usd: number;
    /** The largest modelled clusters, nearest first: at most two above and two below the price. */
    clusters: BriefCluster[];
  };
  /** The next macro events of the coming 7 days (at most three). */
  macro: { next_events: BriefEvent[] };
  /** What could not be read (a missing snapshot, too few candles), so a reader knows what the answer lacks. */
  missing: string[];
}

export interface TradePlan {
  bias: 'long' | 'short';
  entry: number;
  stop: number;
  /** At 1R, 2R and 3R from the entry (R = the stop distance). */
  targets: number[];
  /** The screener's leverage rule: at most 20, so the stop costs about half the margin. */
  leverage: number;
}

export interface AnalystAnswer {
  answer: string;
  /** Only when a setup is seen. */
  plan: TradePlan | null;
  bias: 'long' | 'short' | 'neutral';
  /** The rules that fired, by name (built-in analyst), for a reader to check the reasoning. */
  reasons: string[];
}

export interface AnalystQuestion {
  brief: Brief;
  question: string;
  /** ISO 639-1 language of the answer: en, es or pt. */
  lang: AnswerLang;
}

export const ANSWER_LANGS = ['en', 'es', 'pt'] as const;
export type AnswerLang = (typeof ANSWER_LANGS)[number];

/** Who answers a question from a brief: the built-in rules, or a model behind a provider. */
export interface Analyst {
  readonly name: string;
  answer(question: AnalystQuestion): Promise<AnalystAnswer>;
}
