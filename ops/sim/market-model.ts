/**
 * The simulated market: one price walk per symbol, 1-minute candles and 24h statistics, seen
 * through four venues. Pure: no timers or I/O; the clock is injected so tests can drive it.
 */
import { backfill, DAY_MINUTES, lognormal, USD_PER_TRADE, type Backfill } from './backfill.js';
import { roundTo } from './format.js';
import { DAY, floorMinute, HOUR, MINUTE } from './market-time.js';
import { createRng, type Rng } from './prng.js';
import type { Candle, CandleInput, ClosedCandle, RangeQuery, SetCandleResult, SimMode, VenueId, VenueQuote } from './market-shapes.js';
import { buildSymbols, DEFAULT_SYMBOLS, type SymbolSpec } from './symbols.js';

export { DAY, HISTORY_MINUTES, HOUR, MINUTE, floorMinute } from './market-time.js';
export { VENUE_IDS } from './market-shapes.js';
export type { Candle, CandleInput, ClosedCandle, RangeQuery, SetCandleResult, SimMode, VenueId, VenueQuote } from './market-shapes.js';

const MAX_HISTORY = 2000;

// Random mode only: a fixed per-venue spread (bps) so venues disagree a little, as real ones do.
const VENUE_BPS: Record<VenueId, number> = { binance: 0, bybit: 2, okx: -1.5, bitget: 3 };
const VENUE_VOLUME_SHARE: Record<VenueId, number> = { binance: 1, bybit: 0.6, okx: 0.45, bitget: 0.35 };

export interface ModelOptions {
  now: () => number;
  seed?: number;
  symbolCount?: number;
  mode?: SimMode;
  tickMs?: number;
}

interface DayWindow {
  key: number;
  version: number;
  size: number;
  open: number;
  openTime: number;
  high: number;
  low: number;
  v: number;
  q: number;
  n: number;
}

/** history: closed candles, contiguous minutes, oldest first. */
interface SymbolState extends Backfill {
  lastQty: number;
  version: number;
  window?: DayWindow;
}

export class MarketModel {
  readonly symbols: readonly SymbolSpec[];
  mode: SimMode;
  private readonly states = new Map<string, SymbolState>();
  /** TradFi symbols whose underlying market is closed (Binance lists their contract on BREAK). */
  private readonly closedMarkets = new Set<string>();
  /**
   * TradFi symbols whose underlying market is closed while the venues still list them trading and publish their last
   * price, unchanged (as Bybit does on a weekend): the random walk leaves them be.
   */
  private readonly frozenMarkets = new Set<string>();
  private readonly rng: Rng;
  private readonly now: () => number;
  private readonly tickMs: number;

  constructor(opts: ModelOptions) {
    this.now = opts.now;
    this.mode = opts.mode ?? 'random';
    this.tickMs = opts.tickMs ?? 500;
    this.rng = createRng(opts.seed ?? Math.floor(Math.random() * 2 ** 32));
    this.symbols = buildSymbols(opts.symbolCount ?? DEFAULT_SYMBOLS);
    const minute = floorMinute(this.now());
    for (const spec of this.symbols) {
      const rank = spec.index / Math.max(1, this.symbols.length - 1);
      this.states.set(spec.symbol, { ...backfill(spec, minute, rank, this.rng), lastQty: 0.01, version: 0 });
    }
  }

  has(symbol: string): boolean {
    return this.states.has(symbol);
  }

  /** Closes or opens a symbol's underlying market (weekends, holidays): only a TradFi symbol has one to close. */
  setMarketClosed(symbol: string, closed: boolean): void {
    if (closed) this.closedMarkets.add(symbol);
    else this.closedMarkets.delete(symbol);
  }

  isMarketClosed(symbol: string): boolean {
    return this.closedMarkets.has(symbol);
  }

  /** Freezes a symbol's price (its venues publish it unchanged, and list it trading), or lets it walk again. */
  setMarketFrozen(symbol: string, frozen: boolean): void {
    if (frozen) this.frozenMarkets.add(symbol);
    else this.frozenMarkets.delete(symbol);
  }

  spec(symbol: string): SymbolSpec | undefined {
    return this.states.get(symbol)?.spec;
  }

  /** Accepts BTC, btc, BTCUSDT, BTC-USDT, BTC-USDT-SWAP, BTC/USDT. */
  resolve(input: string): string | undefined {
    const s = input
      .trim()
      .toUpperCase()
      .replace(/-SWAP$/, '')
      .replace(/[-/_]/g, '');
    if (this.states.has(s)) return s;
    if (this.states.has(`${s}USDT`)) return `${s}USDT`;
    return undefined;
  }

  basePrice(symbol: string): number {
    return this.state(symbol).price;
  }

  /** One walk step for every symbol (random mode) plus trading volume (both modes). */
  step(): void {
    const frac = this.tickMs / MINUTE;
    for (const s of this.states.values()) {
      if (this.mode === 'random' && !this.frozenMarkets.has(s.spec.symbol)) {
        const sigma = s.sigmaMin * Math.sqrt(frac);
        // weak pull towards the start price keeps long demo runs plausible
        const pull = -0.002 * frac * Math.log(s.price / s.spec.startPrice);
        const next = roundTo(s.price * Math.exp(sigma * this.rng.gauss() + pull), s.spec.tick);
        this.applyPrice(s, Math.max(s.spec.tick, next));
      }
      const q = s.volPerMinUsd * frac * this.lognormal();
      const n = Math.max(1, Math.round(q / USD_PER_TRADE));
      const v = q / s.price;
      s.current.v += v;
      s.current.q += q;
      s.current.n += n;
      s.nextTradeId += n;
      s.lastQty = v / n;
    }
  }

  /** Rolls candles up to the clock's current minute; returns the candles that just closed, in order. */
  advance(): ClosedCandle[] {
    const minute = floorMinute(this.now());
    const closed: ClosedCandle[] = [];
    for (const s of this.states.values()) {
      if (minute - s.current.t > MAX_HISTORY * MINUTE) {
        // the clock jumped far ahead: restart history instead of looping through days of flat candles
        s.history = [];
        s.current = this.flatCandle(s, minute - MAX_HISTORY * MINUTE);
      }
      while (s.current.t < minute) {
        const done = s.current;
        s.history.push(done);
        closed.push({ symbol: s.spec.symbol, candle: done });
        s.current = this.flatCandle(s, done.t + MINUTE);
        s.version++;
      }
      if (s.history.length > MAX_HISTORY) s.history.splice(0, s.history.length - MAX_HISTORY);
    }
    return closed;
  }

  setPrice(symbol: string, price: number): void {
    this.applyPrice(this.state(symbol), price);
  }

  /** Replaces the candle that opens at `t`: the current one, or a closed one still in history. */
  setCandle(symbol: string, t: number, input: CandleInput): SetCandleResult {
    const s = this.state(symbol);
    if (t > s.current.t) return { ok: false, error: 'minute is in the future' };
    let target: Candle | undefined = s.current;
    if (t < s.current.t) {
      const first = s.history[0]?.t;
      target = first === undefined ? undefined : s.history[(t - first) / MINUTE];
      if (!target || target.t !== t) return { ok: false, error: 'minute is older than the retained history' };
    }
    target.o = input.o;
    target.h = input.h;
    target.l = input.l;
    target.c = input.c;
    if (input.v !== undefined) target.v = input.v;
    target.q = (target.v * (input.o + input.h + input.l + input.c)) / 4;
    if (target.n === 0 && target.v > 0) target.n = 1;
    s.version++;
    if (target === s.current) {
      s.price = input.c;
      return { ok: true, kind: 'current', candle: target };
    }
    return { ok: true, kind: 'past', candle: target };
  }

  price(symbol: string, venue: VenueId): number {
    const s = this.state(symbol);
    return this.vp(s, venue, s.price);
  }

  currentCandle(symbol: string, venue: VenueId): Candle {
    return this.venueCandle(symbol, venue, this.state(symbol).current);
  }

  /** A base candle as one venue reports it (spread and volume share applied). */
  venueCandle(symbol: string, venue: VenueId, c: Candle): Candle {
    const s = this.state(symbol);
    const share = VENUE_VOLUME_SHARE[venue];
    return {
      t: c.t,
      o: this.vp(s, venue, c.o),
      h: this.vp(s, venue, c.h),
      l: this.vp(s, venue, c.l),
      c: this.vp(s, venue, c.c),
      v: c.v * share,
      q: c.q * share * this.factor(venue),
      n: c.n > 0 ? Math.max(1, Math.round(c.n * share)) : 0,
      f: Math.round(c.f * share),
    };
  }

  /** Candles (closed history plus the open one) whose open time is in [from, to], oldest first. */
  range(symbol: string, venue: VenueId, query: RangeQuery): Candle[] {
    const s = this.state(symbol);
    const count = s.history.length + 1;
    const first = s.history[0]?.t ?? s.current.t;
    let lo = 0;
    let hi = count - 1;
    if (query.from !== undefined) lo = Math.max(lo, Math.ceil((query.from - first) / MINUTE));
    if (query.to !== undefined) hi = Math.min(hi, Math.floor((query.to - first) / MINUTE));
    if (hi < lo || query.limit <= 0) return [];
    if (hi - lo + 1 > query.limit) {
      if (query.anchor === 'start') hi = lo + query.limit - 1;
      else lo = hi - query.limit + 1;
    }
    const out: Candle[] = [];
    for (let i = lo; i <= hi; i++) out.push(this.venueCandle(symbol, venue, s.history[i] ?? s.current));
    return out;
  }

  quote(symbol: string, venue: VenueId): VenueQuote {
    const s = this.state(symbol);
    const w = this.dayWindow(s);
    const cur = s.current;
    const now = this.now();
    const share = VENUE_VOLUME_SHARE[venue];
    const f = this.factor(venue);
    const interval = s.spec.fundingIntervalHours * HOUR;
    const last = this.vp(s, venue, s.price);
    const open24h = this.vp(s, venue, w.size > 0 ? w.open : cur.o);
    const count = Math.round((w.n + cur.n) * share);
    const lastId = Math.round((s.nextTradeId - 1) * share);
    const bid = Math.min(last, roundTo(Math.floor(last / s.spec.tick + 1e-9) * s.spec.tick, s.spec.tick));
    const quoteVolume24h = (w.q + cur.q) * share * f;
    return {
      spec: s.spec,
      venue,
      ts: now,
      last,
      index: s.price,
      bid,
      ask: roundTo(bid + s.spec.tick, s.spec.tick),
      open24h,
      high24h: Math.max(last, this.vp(s, venue, Math.max(w.high, cur.h))),
      low24h: Math.min(last, this.vp(s, venue, Math.min(w.low, cur.l))),
      volume24h: (w.v + cur.v) * share,
      quoteVolume24h,
      changePct: ((last - open24h) / open24h) * 100,
      openTime: w.size > 0 ? w.openTime : cur.t,
      count,
      firstId: lastId - count + 1,
      lastId,
      lastQty: s.lastQty,
      open1h: this.vp(s, venue, this.openAt(s, cur.t - HOUR)),
      openUtc0: this.vp(s, venue, this.openAt(s, Math.floor(now / DAY) * DAY)),
      openUtc8: this.vp(s, venue, this.openAt(s, Math.floor((now + 8 * HOUR) / DAY) * DAY - 8 * HOUR)),
      openInterest: (quoteVolume24h * 0.25) / last,
      fundingRate: 0.0001,
      nextFundingTime: (Math.floor(now / interval) + 1) * interval,
      fundingIntervalMs: interval,
    };
  }

  /** The mark a funding time settled at: the open of the minute it falls in, else the price now. */
  markAt(symbol: string, venue: VenueId, t: number): number {
    const [candle] = this.range(symbol, venue, { from: t, to: t, limit: 1, anchor: 'start' });
    return candle?.o ?? this.price(symbol, venue);
  }

  private state(symbol: string): SymbolState {
    const s = this.states.get(symbol);
    if (!s) throw new Error(`unknown symbol ${symbol}`);
    return s;
  }

  private factor(venue: VenueId): number {
    return this.mode === 'random' ? 1 + VENUE_BPS[venue] / 1e4 : 1;
  }

  private vp(s: SymbolState, venue: VenueId, p: number): number {
    const f = this.factor(venue);
    return f === 1 ? p : roundTo(p * f, s.spec.tick);
  }

  private applyPrice(s: SymbolState, p: number): void {
    s.price = p;
    s.current.c = p;
    s.current.h = Math.max(s.current.h, p);
    s.current.l = Math.min(s.current.l, p);
  }

  private openAt(s: SymbolState, t: number): number {
    const first = s.history[0]?.t ?? s.current.t;
    if (t >= s.current.t) return s.current.o;
    const idx = Math.max(0, Math.floor((t - first) / MINUTE));
    return (s.history[idx] ?? s.current).o;
  }

  /** 24h stats of the closed candles in the window, cached until a minute closes or history is edited. */
  private dayWindow(s: SymbolState): DayWindow {
    const key = s.current.t;
    if (s.window && s.window.key === key && s.window.version === s.version) return s.window;
    const from = key - (DAY_MINUTES - 1) * MINUTE;
    const w: DayWindow = { key, version: s.version, size: 0, open: 0, openTime: 0, high: -Infinity, low: Infinity, v: 0, q: 0, n: 0 };
    for (const c of s.history) {
      if (c.t < from) continue;
      if (w.size === 0) {
        w.open = c.o;
        w.openTime = c.t;
      }
      w.size++;
      w.high = Math.max(w.high, c.h);
      w.low = Math.min(w.low, c.l);
      w.v += c.v;
      w.q += c.q;
      w.n += c.n;
    }
    s.window = w;
    return w;
  }

  private flatCandle(s: SymbolState, t: number): Candle {
    return { t, o: s.price, h: s.price, l: s.price, c: s.price, v: 0, q: 0, n: 0, f: s.nextTradeId };
  }

  private lognormal(): number {
    return lognormal(this.rng);
  }
}
