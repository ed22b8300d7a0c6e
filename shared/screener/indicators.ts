/**
 * The screener's indicators on one candle series, from trading-signals: RSI(14), MACD(12,26,9),
 * EMA 20/50/200 and ATR(14). Pure: candles in, numbers out.
 */
import { ATR, EMA, MACD, RSI } from 'trading-signals';

export interface Bar {
  high: number;
  low: number;
  close: number;
}

export interface IndicatorSnapshot {
  /** Close of the newest bar (the one still forming, when the series ends with it). */
  close: number;
  rsi: number;
  macd: { macd: number; signal: number; histogram: number };
  ema20: number;
  ema50: number;
  /** null when the series is shorter than 200 bars. */
  ema200: number | null;
  atr: number;
  bars: number;
}

/** MACD(12,26,9) is stable after 26 + 9 - 1 bars; below this the series is not scored. */
export const MIN_BARS = 60;
/** Bars wanted for every indicator, EMA200 included, plus some warm-up. */
export const WANTED_BARS = 250;
const RSI_PERIOD = 14;

/** Snapshot after the last bar, or null when there are fewer than MIN_BARS usable bars. */
export function computeIndicators(series: readonly Bar[]): IndicatorSnapshot | null {
  const bars = series.filter((b) => Number.isFinite(b.close) && Number.isFinite(b.high) && Number.isFinite(b.low) && b.close > 0);
  if (bars.length < MIN_BARS) return null;
  const rsi = new RSI(RSI_PERIOD);
  const macd = new MACD(new EMA(12), new EMA(26), new EMA(9));
  const ema20 = new EMA(20);
  const ema50 = new EMA(50);
  const ema200 = new EMA(200);
  const atr = new ATR(14);
  for (const bar of bars) {
    rsi.add(bar.close);
    macd.add(bar.close);
    ema20.add(bar.close);
    ema50.add(bar.close);
    ema200.add(bar.close);
    atr.add({ high: Math.max(bar.high, bar.close), low: Math.min(bar.low, bar.close), close: bar.close });
  }
  const macdResult = macd.getResult();
  const rsiResult = rsi.getResult();
  const atrResult = atr.getResult();
  const e20 = ema20.getResult();
  const e50 = ema50.getResult();
  if (!macdResult || rsiResult === null || atrResult === null || e20 === null || e50 === null) return null;
  return {
    close: bars[bars.length - 1].close,
    rsi: flatWindow(bars) ? 50 : rsiResult,
    macd: { macd: macdResult.macd, signal: macdResult.signal, histogram: macdResult.histogram },
    ema20: e20,
    ema50: e50,
    ema200: ema200.isStable ? ema200.getResult() : null,
    atr: atrResult,
    bars: bars.length,
  };
}

/**
 * RSI is 100 when no bar closed lower, which includes a series that did not move at all; a window
 * of RSI_PERIOD + 1 identical closes has no momentum either way, so it counts as 50.
 */
function flatWindow(bars: readonly Bar[]): boolean {
  const last = bars.slice(-(RSI_PERIOD + 1));
  return last.every((b) => b.close === last[0].close);
}
