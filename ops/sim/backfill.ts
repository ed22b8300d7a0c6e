/** Synthetic price history for a symbol, generated at start so history endpoints have data. */
import { roundTo } from './format.js';
import type { Candle } from './market-model.js';
import { HISTORY_MINUTES, MINUTE } from './market-time.js';
import type { Rng } from './prng.js';
import type { SymbolSpec } from './symbols.js';

export const DAY_MINUTES = 1440;
export const USD_PER_TRADE = 3000;

export interface Backfill {
  readonly spec: SymbolSpec;
  /** Per-minute log-return volatility. */
  readonly sigmaMin: number;
  readonly volPerMinUsd: number;
  price: number;
  current: Candle;
  history: Candle[];
  nextTradeId: number;
}

/** Log-normal factor with mean 1, for volumes. */
export function lognormal(rng: Rng): number {
  return Math.exp(0.5 * rng.gauss() - 0.125);
}

/**
 * HISTORY_MINUTES closed candles walked backwards from a price near the symbol's start price, so the
 * history ends exactly where the live walk begins. `rank` in [0,1]: less liquid coins move more.
 */
export function backfill(spec: SymbolSpec, minute: number, rank: number, rng: Rng): Backfill {
  const sigmaMin = 0.0009 * (1 + 0.8 * rank);
  const volPerMinUsd = spec.quoteVolume24h / DAY_MINUTES;
  const price = roundTo(spec.startPrice * Math.exp(0.02 * rng.gauss()), spec.tick);
  const closes: number[] = new Array<number>(HISTORY_MINUTES);
  let p = price;
  for (let i = HISTORY_MINUTES - 1; i >= 0; i--) {
    closes[i] = p;
    p = Math.max(spec.tick, roundTo(p / Math.exp(sigmaMin * rng.gauss()), spec.tick));
  }
  const history: Candle[] = [];
  let tradeId = 100_000_000;
  let open = p;
  for (let i = 0; i < HISTORY_MINUTES; i++) {
    const c = closes[i];
    const h = roundTo(Math.max(open, c) * (1 + Math.abs(rng.gauss()) * sigmaMin * 0.6), spec.tick);
    const l = roundTo(Math.min(open, c) * (1 - Math.abs(rng.gauss()) * sigmaMin * 0.6), spec.tick);
    const q = volPerMinUsd * lognormal(rng);
    const n = Math.max(1, Math.round(q / USD_PER_TRADE));
    history.push({
      t: minute - (HISTORY_MINUTES - i) * MINUTE,
      o: open,
      h: Math.max(h, open, c),
      l: Math.max(spec.tick, Math.min(l, open, c)),
      c,
      v: q / ((open + c) / 2),
      q,
      n,
      f: tradeId,
    });
    tradeId += n;
    open = c;
  }
  const current: Candle = { t: minute, o: price, h: price, l: price, c: price, v: 0, q: 0, n: 0, f: tradeId };
  return { spec, sigmaMin, volPerMinUsd, price, current, history, nextTradeId: tradeId };
}
