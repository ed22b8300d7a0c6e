/**
 * One screener run: candles for the top N perpetuals (from the market service: Redis when it holds
 * the range, REST history otherwise), indicators and score per symbol, a few symbols at a time.
 */
import type { CandleRequest } from '../market/market-service.js';
import type { Candle, UniverseEntry } from '../market/types.js';
import { computeIndicators, WANTED_BARS } from './indicators.js';
import { roundPrice, scoreSnapshot } from './score.js';
import { timeframeLabel, type ScreenerResult, type ScreenerRow } from './screener-types.js';

export interface CandleSource {
  symbols(): Promise<UniverseEntry[]>;
  candles(request: CandleRequest): Promise<Candle[]>;
}

export interface ScreenerRunOptions {
  size: number;
  intervalMinutes: number;
  bars?: number;
  /** Symbols fetched at once. */
  concurrency?: number;
  now: number;
  /** Aborted (the worker stopping): no further symbol is fetched, and the run answers what it scored (or throws). */
  signal?: AbortSignal;
}

const round = (x: number, dp: number): number => Number(x.toFixed(dp));

export function rowFor(symbol: string, candles: readonly Candle[]): ScreenerRow | null {
  const snapshot = computeIndicators(candles);
  if (!snapshot) return null;
  const scored = scoreSnapshot(snapshot);
  return {
    symbol,
    price: roundPrice(snapshot.close),
    score: scored.score,
    verdict: scored.verdict,
    decisive: scored.decisive,
    rsi: round(snapshot.rsi, 2),
    macd: {
      macd: roundPrice(snapshot.macd.macd),
      signal: roundPrice(snapshot.macd.signal),
      histogram: roundPrice(snapshot.macd.histogram),
    },
    trend: scored.trend,
    ema: {
      ema20: roundPrice(snapshot.ema20),
      ema50: roundPrice(snapshot.ema50),
      ema200: snapshot.ema200 === null ? null : roundPrice(snapshot.ema200),
    },
    atr: roundPrice(snapshot.atr),
    setup: scored.setup,
  };
}

/** Throws when the universe is empty or no symbol could be scored (the job then counts as failed). */
export async function runScreener(source: CandleSource, options: ScreenerRunOptions): Promise<ScreenerResult> {
  const bars = options.bars ?? WANTED_BARS;
  const universe = (await source.symbols()).slice(0, options.size).map((entry) => entry.symbol);
  if (universe.length === 0) throw new Error('the symbol universe is empty');
  const rows = new Map<string, ScreenerRow>();
  const errors: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < universe.length && !options.signal?.aborted) {
      const symbol = universe[next++];
      try {
        const candles = await source.candles({ symbol, intervalMinutes: options.intervalMinutes, limit: bars, endMs: options.now });
        const row = rowFor(symbol, candles);
        if (row) rows.set(symbol, row);
      } catch (error) {
        errors.push(`${symbol}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 5) }, worker));
  if (rows.size === 0) throw new Error(`no symbol could be scored (${errors.slice(0, 3).join('; ') || 'too few bars'})`);
  return {
    timeframe: timeframeLabel(options.intervalMinutes),
    intervalMinutes: options.intervalMinutes,
    bars,
    computedAt: options.now,
    universe: universe.length,
    skipped: universe.filter((s) => !rows.has(s)),
    rows: universe.map((s) => rows.get(s)).filter((r): r is ScreenerRow => r !== undefined),
  };
}
