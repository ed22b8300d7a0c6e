/**
 * The screener's score: a pure function of one indicator snapshot. Every component is a number in
 * [-1, 1] (distances are measured in ATRs, so the score means the same on BTC and on a 0.01 coin);
 * a component of weight w moves the score by up to w/2 points either side of 50.
 *
 *   trend     40  mean of (close - EMA20), (EMA20 - EMA50), (EMA50 - EMA200) in ATRs, each clamped to [-1, 1]
 *                 (without 200 bars: the first two only)
 *   macd      20  MACD line in ATRs, clamped
 *   histogram 10  2 x MACD histogram in ATRs, clamped
 *   rsi       30  (RSI - 50) / 20, clamped: RSI 70 and above counts fully bullish, 30 and below fully bearish
 *
 * score = round(50 + sum(weight x component) / 2), 0..100. Verdict: bullish at 50 and above, bearish
 * below. The call is decisive at LONG_AT (70) and above or SHORT_AT (30) and below; only then is there
 * a setup: entry at the last close, stop-loss 1.5 ATR against the trade, take-profits at 1, 2 and 3
 * times that risk, and a leverage that keeps the stop at most half way to an isolated-margin
 * liquidation (lev <= 50 / stop distance in percent), between 1 and 20.
 */
import type { IndicatorSnapshot } from './indicators.js';

export const WEIGHTS = { trend: 40, macd: 20, histogram: 10, rsi: 30 } as const;
export const LONG_AT = 70;
export const SHORT_AT = 30;
export const STOP_ATR = 1.5;
export const TARGET_R = [1, 2, 3] as const;
export const MAX_LEVERAGE = 20;

export type Verdict = 'bullish' | 'bearish';
export type TrendLabel = 'up' | 'down' | 'sideways';

export interface Setup {
  dir: 'long' | 'short';
  entry: number;
  sl: number;
  tp1: number;
  tp2: number;
  tp3: number;
  lev: number;
}

export interface ScoreResult {
  score: number;
  verdict: Verdict;
  decisive: boolean;
  trend: TrendLabel;
  components: { trend: number; macd: number; histogram: number; rsi: number };
  setup: Setup | null;
}

const clamp = (x: number): number => (Number.isFinite(x) ? Math.max(-1, Math.min(1, x)) : 0);

/** Six significant digits: enough for any price, short in JSON. */
export function roundPrice(x: number): number {
  return Number(x.toPrecision(6));
}

function inAtr(diff: number, atr: number): number {
  return atr > 0 ? clamp(diff / atr) : 0;
}

function trendComponent(s: IndicatorSnapshot): number {
  const parts = [inAtr(s.close - s.ema20, s.atr), inAtr(s.ema20 - s.ema50, s.atr)];
  if (s.ema200 !== null) parts.push(inAtr(s.ema50 - s.ema200, s.atr));
  return parts.reduce((a, b) => a + b, 0) / parts.length;
}

/** The ATR setup for a decisive call, or null when a target would not be a positive price. */
export function buildSetup(dir: 'long' | 'short', entry: number, atr: number): Setup | null {
  if (!(entry > 0) || !(atr > 0)) return null;
  const risk = STOP_ATR * atr;
  const sign = dir === 'long' ? 1 : -1;
  const sl = entry - sign * risk;
  const [tp1, tp2, tp3] = TARGET_R.map((r) => entry + sign * r * risk);
  if (sl <= 0 || tp3 <= 0) return null;
  const stopPct = (risk / entry) * 100;
  const lev = Math.max(1, Math.min(MAX_LEVERAGE, Math.floor(50 / stopPct)));
  return { dir, entry: roundPrice(entry), sl: roundPrice(sl), tp1: roundPrice(tp1), tp2: roundPrice(tp2), tp3: roundPrice(tp3), lev };
}

export function scoreSnapshot(s: IndicatorSnapshot): ScoreResult {
  const components = {
    trend: trendComponent(s),
    macd: inAtr(s.macd.macd, s.atr),
    histogram: inAtr(2 * s.macd.histogram, s.atr),
    rsi: clamp((s.rsi - 50) / 20),
  };
  const weighted =
    WEIGHTS.trend * components.trend +
    WEIGHTS.macd * components.macd +
    WEIGHTS.histogram * components.histogram +
    WEIGHTS.rsi * components.rsi;
  const score = Math.max(0, Math.min(100, Math.round(50 + weighted / 2)));
  const verdict: Verdict = score >= 50 ? 'bullish' : 'bearish';
  const dir = score >= LONG_AT ? 'long' : score <= SHORT_AT ? 'short' : null;
  const setup = dir ? buildSetup(dir, s.close, s.atr) : null;
  const trend: TrendLabel = components.trend >= 0.5 ? 'up' : components.trend <= -0.5 ? 'down' : 'sideways';
  return { score, verdict, decisive: dir !== null, trend, components, setup };
}
