/**
 * Past UTC days of 1-minute candles, before the minutes the model holds (what a replay of a past day
 * reads through the history path). Each (symbol, day) is a deterministic random walk from the
 * symbol's start price, seeded by the pair: the same day answers the same candles on every run (none before FIRST_PAST_DAY). A
 * day can be scripted through the control plane (POST /__sim/day): every minute flat at `base`
 * except the minutes given, so a test knows at which minute each level is reached.
 */
import type { Candle } from './market-model.js';
import { MINUTE } from './market-time.js';
import { createRng } from './prng.js';

const DAY = 1440 * MINUTE;
/** USDT perpetuals began trading in September 2019: earlier days have no candles (a replay of one answers no_data). */
export const FIRST_PAST_DAY = Date.UTC(2019, 8, 1);
/** Unscripted days kept computed (1440 candles each). */
const DAYS_KEPT = 32;

export interface ScriptedMinute {
  minute: number;
  o: number;
  h: number;
  l: number;
  c: number;
}

function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function candle(t: number, o: number, h: number, l: number, c: number): Candle {
  const v = 10;
  return { t, o, h, l, c, v, q: v * c, n: 100, f: 0 };
}

export class PastDays {
  private readonly scripted = new Map<string, Candle[]>();
  private readonly walked = new Map<string, Candle[]>();

  /** Scripts a day: flat at base, the given minutes (ms, inside the day) as given. */
  script(symbol: string, dayStart: number, base: number, minutes: readonly ScriptedMinute[]): void {
    const day = Array.from({ length: 1440 }, (_, i) => candle(dayStart + i * MINUTE, base, base, base, base));
    for (const m of minutes) day[(m.minute - dayStart) / MINUTE] = candle(m.minute, m.o, m.h, m.l, m.c);
    this.scripted.set(`${symbol}:${dayStart}`, day);
  }

  /** Up to `limit` candles of the days touching [from, to] (open times), oldest first; the newest kept unless anchored at the start. */
  range(symbol: string, basePrice: number, query: { from?: number; to: number; limit: number; anchor: 'start' | 'end' }): Candle[] {
    const from = query.from ?? query.to - (query.limit - 1) * MINUTE;
    const out: Candle[] = [];
    for (let dayStart = Math.max(FIRST_PAST_DAY, Math.floor(from / DAY) * DAY); dayStart <= query.to; dayStart += DAY) {
      for (const c of this.day(symbol, dayStart, basePrice)) if (c.t >= from && c.t <= query.to) out.push(c);
    }
    return query.anchor === 'start' ? out.slice(0, query.limit) : out.slice(-query.limit);
  }

  private day(symbol: string, dayStart: number, basePrice: number): Candle[] {
    const name = `${symbol}:${dayStart}`;
    const scripted = this.scripted.get(name);
    if (scripted) return scripted;
    let walk = this.walked.get(name);
    if (!walk) {
      const rng = createRng(seedOf(name));
      walk = [];
      let close = basePrice;
      for (let i = 0; i < 1440; i++) {
        const open = close;
        close = open * Math.exp(0.0008 * rng.gauss());
        const high = Math.max(open, close) * (1 + Math.abs(0.0004 * rng.gauss()));
        const low = Math.min(open, close) * (1 - Math.abs(0.0004 * rng.gauss()));
        walk.push(candle(dayStart + i * MINUTE, open, high, low, close));
      }
      this.walked.set(name, walk);
      if (this.walked.size > DAYS_KEPT) this.walked.delete(this.walked.keys().next().value as string);
    }
    return walk;
  }
}
