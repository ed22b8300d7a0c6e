/** The sim-only control plane under /__sim: scripted prices, candles, liquidations and outages. */
import { VENUE_IDS, type Candle, type MarketModel, type VenueId } from './market-model.js';
import type { PastDays, ScriptedMinute } from './past-days.js';
import type { LiquidationEvent, LiquidationPublisher, RestReply, Venue } from './sim-types.js';
import { isRecord } from './ws-hub.js';

const MAX_RECORDED_LIQUIDATIONS = 1000;

/** Upstream providers (exchanges and any other named source) currently failing on purpose. */
export class ProviderRegistry {
  private readonly down = new Set<string>();

  isDown(name: string): boolean {
    return this.down.has(name);
  }

  set(name: string, down: boolean): void {
    if (down) this.down.add(name);
    else this.down.delete(name);
  }

  list(): string[] {
    return [...this.down].sort();
  }
}

export interface ControlContext {
  readonly model: MarketModel;
  readonly venues: ReadonlyMap<VenueId, Venue>;
  /** Liquidation formats by exchange name; exchanges without one are accepted and recorded only. */
  readonly publishers: ReadonlyMap<string, LiquidationPublisher>;
  readonly providers: ProviderRegistry;
  readonly now: () => number;
  /** Rolls minutes forward and pushes the candles that closed. */
  readonly sync: () => void;
  /** Moves the sim's clock on to the next minute's start, so the current minute closes now; answers the minute closed. */
  readonly closeMinute: () => number;
  /** The liquidation-only exchanges' sockets: drop (undefined when the exchange is not one of them) and counts. */
  readonly liquidations?: { drop(exchange?: string): number | undefined; connections(): Record<string, number> };
  /** Past days of 1-minute candles (POST /day scripts one). */
  readonly pastDays?: PastDays;
}

const ok = (body: Record<string, unknown>): RestReply => ({ status: 200, body: { ok: true, ...body } });
const bad = (error: string, status = 400): RestReply => ({ status, body: { ok: false, error } });

/** A finite number, or a numeric string (clients sometimes send prices as strings). */
function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function positive(body: Record<string, unknown>, key: string): number | string {
  const n = num(body[key]);
  return n !== undefined && n > 0 ? n : `${key} must be a positive number`;
}

function candleJson(c: Candle): Record<string, number> {
  return { t: c.t, o: c.o, h: c.h, l: c.l, c: c.c, v: c.v };
}

export class ControlPlane {
  private readonly liquidations: LiquidationEvent[] = [];
  private liquidationSeq = 0;

  constructor(private readonly ctx: ControlContext) {}

  /** body is the parsed JSON of a POST (undefined for GET). undefined result: unknown path. */
  handle(method: string, path: string, query: URLSearchParams, body: unknown): RestReply | undefined {
    this.ctx.sync();
    if (method === 'GET') {
      if (path === '/state') return this.state(query.get('symbol'));
      if (path === '/liquidations') return ok({ liquidations: this.liquidations });
      return undefined;
    }
    if (method !== 'POST') return undefined;
    if (!isRecord(body)) return bad('body must be a JSON object');
    switch (path) {
      case '/price':
        return this.price(body);
      case '/candle':
        return this.candle(body);
      case '/liquidation':
        return this.liquidation(body);
      case '/provider':
        return this.provider(body);
      case '/mode':
        return this.mode(body);
      case '/drop':
        return this.drop(body);
      case '/day':
        return this.day(body);
      case '/market':
        return this.market(body);
      case '/close-minute':
        return ok({ closed: this.ctx.closeMinute(), now: this.ctx.now() });
      default:
        return undefined;
    }
  }

  private symbol(body: Record<string, unknown>): string | RestReply {
    if (typeof body.symbol !== 'string' || body.symbol.trim() === '') return bad('symbol is required');
    return this.ctx.model.resolve(body.symbol) ?? bad(`unknown symbol ${body.symbol}`, 404);
  }

  private prices(symbol: string): Record<string, number> {
    return Object.fromEntries(VENUE_IDS.map((v) => [v, this.ctx.model.price(symbol, v)]));
  }

  private price(body: Record<string, unknown>): RestReply {
    const symbol = this.symbol(body);
    if (typeof symbol !== 'string') return symbol;
    const price = positive(body, 'price');
    if (typeof price === 'string') return bad(price);
    this.ctx.model.setPrice(symbol, price);
    for (const v of this.ctx.venues.values()) v.pushSymbol(symbol);
    return ok({ symbol, price, prices: this.prices(symbol) });
  }

  /**
   * Closes or reopens a TradFi symbol's underlying market: {symbol, closed?: boolean, frozen?: boolean}, at least one.
   * closed: the venues say so (Binance lists it on BREAK, OKX on suspend); frozen: they say nothing, list it trading
   * and keep publishing its last price unchanged.
   */
  private market(body: Record<string, unknown>): RestReply {
    const symbol = this.symbol(body);
    if (typeof symbol !== 'string') return symbol;
    const { closed, frozen } = body;
    if ((closed === undefined && frozen === undefined) || ![closed, frozen].every((v) => v === undefined || typeof v === 'boolean')) {
      return bad('closed or frozen must be a boolean');
    }
    if (this.ctx.model.spec(symbol)?.assetClass === 'crypto') return bad(`${symbol} is a coin: its market never closes`);
    if (typeof closed === 'boolean') this.ctx.model.setMarketClosed(symbol, closed);
    if (typeof frozen === 'boolean') this.ctx.model.setMarketFrozen(symbol, frozen);
    return ok({ symbol, closed: this.ctx.model.isMarketClosed(symbol), frozen });
  }

  /**
   * Scripts a past UTC day of a symbol: {symbol, day: YYYY-MM-DD, base, minutes: [{minute (ms), open, high, low, close}]}; every
   * other minute is flat at base.
   */
  private day(body: Record<string, unknown>): RestReply {
    const symbol = this.symbol(body);
    if (typeof symbol !== 'string') return symbol;
    if (!this.ctx.pastDays) return bad('past days are not served');
    const dayStart = typeof body.day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(body.day) ? Date.parse(`${body.day}T00:00:00Z`) : NaN;
    if (!Number.isFinite(dayStart)) return bad('day must be YYYY-MM-DD');
    const base = positive(body, 'base');
    if (typeof base === 'string') return bad(base);
    if (!Array.isArray(body.minutes)) return bad('minutes must be an array');
    const minutes: ScriptedMinute[] = [];
    for (const m of body.minutes as unknown[]) {
      if (!isRecord(m)) return bad('each minute must be an object');
      const minute = num(m.minute);
      if (minute === undefined || minute % 60_000 !== 0 || minute < dayStart || minute >= dayStart + 86_400_000) {
        return bad('minute must be a unix ms timestamp inside the day, a multiple of 60000');
      }
      const [o, h, l, c] = ['open', 'high', 'low', 'close'].map((key) => positive(m, key));
      if ([o, h, l, c].some((n) => typeof n === 'string')) return bad('open, high, low and close must be positive numbers');
      minutes.push({ minute, o: o as number, h: h as number, l: l as number, c: c as number });
    }
    this.ctx.pastDays.script(symbol, dayStart, base, minutes);
    return ok({ symbol, day: body.day, minutes: minutes.length });
  }

  private candle(body: Record<string, unknown>): RestReply {
    const symbol = this.symbol(body);
    if (typeof symbol !== 'string') return symbol;
    const minute = num(body.minute);
    if (minute === undefined || !Number.isInteger(minute) || minute % 60_000 !== 0) {
      return bad('minute must be a unix ms timestamp that is a multiple of 60000');
    }
    const ohlc: number[] = [];
    for (const key of ['open', 'high', 'low', 'close']) {
      const n = positive(body, key);
      if (typeof n === 'string') return bad(n);
      ohlc.push(n);
    }
    const [o, h, l, c] = ohlc;
    if (h < Math.max(o, c, l) || l > Math.min(o, c)) return bad('high must be >= open, close, low and low <= open, close');
    let v: number | undefined;
    if (body.volume !== undefined) {
      v = num(body.volume);
      if (v === undefined || v < 0) return bad('volume must be a non-negative number');
    }
    const res = this.ctx.model.setCandle(symbol, minute, { o, h, l, c, v });
    if (!res.ok) return bad(res.error);
    for (const venue of this.ctx.venues.values()) {
      // a past minute is final: publish it closed now; the current one closes at the minute's end
      if (res.kind === 'past') venue.pushClosedCandle(symbol, res.candle);
      else venue.pushSymbol(symbol);
    }
    return ok({ symbol, minute, kind: res.kind, candle: candleJson(res.candle) });
  }

  private liquidation(body: Record<string, unknown>): RestReply {
    const exchange = typeof body.exchange === 'string' ? body.exchange.trim().toLowerCase() : '';
    if (!/^[a-z0-9][a-z0-9_.-]{0,31}$/.test(exchange)) return bad('exchange is required');
    const symbol = this.symbol(body);
    if (typeof symbol !== 'string') return symbol;
    if (body.side !== 'long' && body.side !== 'short') return bad('side must be "long" or "short"');
    const price = positive(body, 'price');
    if (typeof price === 'string') return bad(price);
    const qty = positive(body, 'qty');
    if (typeof qty === 'string') return bad(qty);
    const ev: LiquidationEvent = { id: ++this.liquidationSeq, exchange, symbol, side: body.side, price, qty, ts: this.ctx.now() };
    this.liquidations.push(ev);
    if (this.liquidations.length > MAX_RECORDED_LIQUIDATIONS) this.liquidations.shift();
    const publisher = this.ctx.publishers.get(exchange);
    const frames = publisher && !this.ctx.providers.isDown(exchange) ? publisher.publishLiquidation(ev) : 0;
    return ok({ liquidation: ev, streamed: publisher !== undefined, frames });
  }

  private provider(body: Record<string, unknown>): RestReply {
    const name = typeof body.name === 'string' ? body.name.trim().toLowerCase() : '';
    if (name === '') return bad('name is required');
    if (typeof body.down !== 'boolean') return bad('down must be true or false');
    this.ctx.providers.set(name, body.down);
    const venue = this.ctx.venues.get(name as VenueId);
    const dropped = body.down ? (venue ? venue.dropAll() : 0) + (this.ctx.liquidations?.drop(name) ?? 0) : 0;
    return ok({ name, down: body.down, dropped, providersDown: this.ctx.providers.list() });
  }

  private mode(body: Record<string, unknown>): RestReply {
    if (body.mode !== 'random' && body.mode !== 'scripted') return bad('mode must be "random" or "scripted"');
    this.ctx.model.mode = body.mode;
    return ok({ mode: body.mode });
  }

  private drop(body: Record<string, unknown>): RestReply {
    if (body.exchange !== undefined) {
      const name = typeof body.exchange === 'string' ? body.exchange.toLowerCase() : '';
      const venue = this.ctx.venues.get(name as VenueId);
      // bitget's v3 liquidation socket is dropped with its market sockets
      const liquidationOnly = this.ctx.liquidations?.drop(name);
      if (!venue && liquidationOnly === undefined) return bad(`exchange must be one of ${VENUE_IDS.join(', ')} or a liquidation exchange`);
      return ok({ dropped: (venue?.dropAll() ?? 0) + (liquidationOnly ?? 0) });
    }
    let dropped = this.ctx.liquidations?.drop() ?? 0;
    for (const v of this.ctx.venues.values()) dropped += v.dropAll();
    return ok({ dropped });
  }

  private state(symbolParam: string | null): RestReply {
    const { model, venues, providers, now } = this.ctx;
    const common = {
      mode: model.mode,
      now: now(),
      providersDown: providers.list(),
      connections: {
        ...Object.fromEntries([...venues].map(([id, v]) => [id, v.connectionCount()])),
        ...this.ctx.liquidations?.connections(),
      },
    };
    if (symbolParam === null) return ok({ ...common, symbols: model.symbols.map((s) => s.symbol) });
    const symbol = model.resolve(symbolParam);
    if (!symbol) return bad(`unknown symbol ${symbolParam}`, 404);
    const candles = Object.fromEntries(VENUE_IDS.map((v) => [v, candleJson(model.currentCandle(symbol, v))]));
    return ok({ ...common, symbol, price: model.basePrice(symbol), prices: this.prices(symbol), candle: candles.binance, candles });
  }
}
