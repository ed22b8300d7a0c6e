/** Binance USDⓈ-M futures: /fapi REST and the fstream combined/raw WebSocket streams. */
import type { WebSocket } from 'ws';
import { BINANCE_INTERVALS, intervalCandles } from '../interval-history.js';
import type { Candle } from '../market-model.js';
import type { LiquidationEvent, RestReply, RestRequest, Venue, VenueDeps } from '../sim-types.js';
import { intParam, isRecord, parseJson, WsHub, type HubClient } from '../ws-hub.js';
import {
  exchangeInfo,
  forceOrderEvent,
  klineEvent,
  klineRow,
  perpetual,
  premiumIndex,
  symbolInfo,
  ticker24hr,
  tickerEvent,
  tickerPrice,
  type BinanceContract,
} from './binance-format.js';
import { clampLimit, quarterExpiry, yymmdd } from './common.js';
import { simBook } from './depth.js';
import { binanceDerivativesRest } from '../derivatives/binance-derivatives.js';
import { binanceFundingRest } from '../derivatives/binance-funding.js';

const ALL_TICKERS = '!ticker@arr';
const ALL_LIQUIDATIONS = '!forceOrder@arr';
const COMBINED = 'combined';

const err = (status: number, code: number, msg: string): RestReply => ({ status, body: { code, msg } });
const badSymbol = (): RestReply => err(400, -1121, 'Invalid symbol.');
const mandatory = (name: string): RestReply => err(400, -1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`);

export class BinanceVenue implements Venue {
  readonly id = 'binance' as const;
  readonly exchange = 'binance';
  private readonly hub = new WsHub();

  constructor(private readonly deps: VenueDeps) {}

  handleRest(req: RestRequest): RestReply | undefined {
    if (req.method !== 'GET') return undefined;
    const { query } = req;
    switch (req.path) {
      case '/fapi/v1/ping':
        return { status: 200, body: {} };
      case '/fapi/v1/time':
        return { status: 200, body: { serverTime: this.deps.now() } };
      case '/fapi/v1/exchangeInfo':
        return this.exchangeInfo();
      case '/fapi/v1/ticker/24hr':
        return this.tickers(query.get('symbol'), (k) => ticker24hr(this.deps.model.quote(k.spec.symbol, 'binance'), k));
      case '/fapi/v1/ticker/price':
      case '/fapi/v2/ticker/price':
        return this.tickers(query.get('symbol'), (k) => tickerPrice(this.deps.model.quote(k.spec.symbol, 'binance'), k));
      case '/fapi/v1/klines':
        return this.klines(query);
      case '/fapi/v1/depth':
        return this.depth(query);
      case '/fapi/v1/premiumIndex':
        return this.tickers(query.get('symbol'), (k) => premiumIndex(this.deps.model.quote(k.spec.symbol, 'binance'), k));
      default:
        // openInterest, globalLongShortAccountRatio, fundingInfo and fundingRate (ops/sim/derivatives)
        return binanceDerivativesRest(req, this.deps) ?? binanceFundingRest(req, this.deps);
    }
  }

  acceptsWs(path: string): boolean {
    return path === '/stream' || path === '/ws' || path.startsWith('/ws/');
  }

  onConnection(ws: WebSocket, path: string, query: URLSearchParams): void {
    const client = this.hub.add(ws, path, (c, text) => this.onText(c, text));
    // /stream wraps frames as {stream,data}; /ws delivers data alone
    client.state.set(COMBINED, path === '/stream');
    const initial = path === '/stream' ? (query.get('streams') ?? '').split('/') : path.slice('/ws/'.length).split('/');
    for (const s of initial) if (s) client.subs.add(normalizeStream(s));
  }

  pushTick(): void {
    const { model, now } = this.deps;
    for (const topic of this.hub.activeTopics()) {
      if (topic === ALL_TICKERS) {
        this.emit(
          topic,
          model.symbols.map((s) => tickerEvent(model.quote(s.symbol, 'binance'))),
        );
        continue;
      }
      const [sym, kind] = splitStream(topic);
      const symbol = sym.toUpperCase();
      if (!model.has(symbol)) continue;
      if (kind === 'ticker') this.emit(topic, tickerEvent(model.quote(symbol, 'binance')));
      else if (kind === 'kline_1m') this.emit(topic, klineEvent(model.spec(symbol)!, model.currentCandle(symbol, 'binance'), false, now()));
    }
  }

  pushSymbol(symbol: string): void {
    const { model, now } = this.deps;
    const q = model.quote(symbol, 'binance');
    const lower = symbol.toLowerCase();
    this.emit(ALL_TICKERS, [tickerEvent(q)]);
    this.emit(`${lower}@ticker`, tickerEvent(q));
    this.emit(`${lower}@kline_1m`, klineEvent(q.spec, model.currentCandle(symbol, 'binance'), false, now()));
  }

  pushClosedCandle(symbol: string, candle: Candle): void {
    const { model, now } = this.deps;
    const c = model.venueCandle(symbol, 'binance', candle);
    this.emit(`${symbol.toLowerCase()}@kline_1m`, klineEvent(model.spec(symbol)!, c, true, now()));
  }

  publishLiquidation(ev: LiquidationEvent): number {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return 0;
    const data = forceOrderEvent(spec, ev);
    return this.emit(ALL_LIQUIDATIONS, data) + this.emit(`${ev.symbol.toLowerCase()}@forceOrder`, data);
  }

  dropAll(): number {
    return this.hub.terminateAll();
  }

  connectionCount(): number {
    return this.hub.size;
  }

  private emit(stream: string, data: unknown): number {
    const subs = this.hub.subscribers(stream);
    let wrapped: string | undefined;
    let raw: string | undefined;
    for (const c of subs) {
      if (c.state.get(COMBINED) === true) this.hub.send(c, (wrapped ??= JSON.stringify({ stream, data })));
      else this.hub.send(c, (raw ??= JSON.stringify(data)));
    }
    return subs.length;
  }

  private onText(client: HubClient, text: string): void {
    const msg = parseJson(text);
    if (!isRecord(msg)) {
      this.hub.send(client, { error: { code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' }, id: null });
      return;
    }
    const id = typeof msg.id === 'number' || typeof msg.id === 'string' ? msg.id : null;
    const params = msg.params;
    switch (msg.method) {
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        if (!Array.isArray(params) || !params.every((p): p is string => typeof p === 'string')) {
          this.hub.send(client, { error: { code: 2, msg: "Invalid request: 'params' must be an array of strings" }, id });
          return;
        }
        for (const p of params) {
          if (msg.method === 'SUBSCRIBE') client.subs.add(normalizeStream(p));
          else client.subs.delete(normalizeStream(p));
        }
        this.hub.send(client, { result: null, id });
        return;
      }
      case 'LIST_SUBSCRIPTIONS':
        this.hub.send(client, { result: [...client.subs], id });
        return;
      case 'SET_PROPERTY':
        this.hub.send(client, { result: null, id });
        return;
      case 'GET_PROPERTY':
        this.hub.send(client, { result: false, id });
        return;
      default:
        this.hub.send(client, { error: { code: 2, msg: 'Invalid request: unknown method' }, id });
    }
  }

  /** Perpetuals plus two quarterly contracts, as the real exchangeInfo also lists dated futures. */
  private contracts(): BinanceContract[] {
    const { model, now } = this.deps;
    const expiry = quarterExpiry(now());
    const out = model.symbols.map(perpetual);
    for (const spec of model.symbols.slice(0, 2)) {
      out.push({ name: `${spec.symbol}_${yymmdd(expiry)}`, spec, contractType: 'CURRENT_QUARTER', deliveryDate: expiry, basis: 1.004 });
    }
    return out;
  }

  private exchangeInfo(): RestReply {
    const { model, now } = this.deps;
    const symbols = this.contracts().map((k) => symbolInfo(k, model.price(k.spec.symbol, 'binance'), model.isMarketClosed(k.spec.symbol)));
    return { status: 200, body: exchangeInfo(now(), symbols) };
  }

  private tickers(symbol: string | null, build: (k: BinanceContract) => Record<string, unknown>): RestReply {
    const all = this.contracts();
    if (symbol === null) return { status: 200, body: all.map(build) };
    const k = all.find((c) => c.name === symbol);
    return k ? { status: 200, body: build(k) } : badSymbol();
  }

  /** GET /fapi/v1/depth: {lastUpdateId, E, T, bids, asks} (test/fixtures/binance-usdm/depth.json). */
  private depth(query: URLSearchParams): RestReply {
    const { model } = this.deps;
    const symbol = query.get('symbol');
    if (!symbol) return mandatory('symbol');
    if (!model.has(symbol)) return badSymbol();
    const limit = intParam(query, 'limit');
    if (limit === null || (limit !== undefined && ![5, 10, 20, 50, 100, 500, 1000].includes(limit)))
      return err(400, -1100, 'Illegal characters found in a parameter.');
    const now = this.deps.now();
    const book = simBook(symbol, model.price(symbol, 'binance'), limit ?? 500);
    return { status: 200, body: { lastUpdateId: now, E: now, T: now, bids: book.bids, asks: book.asks } };
  }

  private klines(query: URLSearchParams): RestReply {
    const { model } = this.deps;
    const symbol = query.get('symbol');
    if (!symbol) return mandatory('symbol');
    const interval = query.get('interval');
    if (!interval) return mandatory('interval');
    if (!model.has(symbol)) return badSymbol();
    const minutes = interval === '1m' ? 1 : BINANCE_INTERVALS[interval];
    if (minutes === undefined) return err(400, -1120, 'Invalid interval.');
    const start = intParam(query, 'startTime');
    const end = intParam(query, 'endTime');
    const limit = intParam(query, 'limit');
    if (start === null || end === null || limit === null) return err(400, -1100, 'Illegal characters found in a parameter.');
    if (start !== undefined && end !== undefined && start > end) return err(400, -1023, 'Start time is greater than end time.');
    if (minutes > 1) {
      const held = model.range(symbol, 'binance', { limit: Number.MAX_SAFE_INTEGER, anchor: 'end' });
      const rows = intervalCandles(symbol, minutes, held, { start, end, limit: clampLimit(limit, 500, 1500), now: this.deps.now() });
      if (rows === null) return err(400, -1130, "Data sent for parameter 'endTime' is not valid.");
      const intervalSpec = model.spec(symbol)!;
      return { status: 200, body: rows.map((c) => klineRow(intervalSpec, c, minutes)) };
    }
    const range = {
      from: start,
      to: end,
      limit: clampLimit(limit, 500, 1500),
      anchor: start !== undefined ? ('start' as const) : ('end' as const),
    };
    const oldestHeld = model.range(symbol, 'binance', { limit: 1, anchor: 'start' })[0]?.t;
    const { pastDays } = this.deps;
    // a range wholly before the minutes the model holds: a past day (replays)
    const candles =
      pastDays && end !== undefined && oldestHeld !== undefined && end < oldestHeld
        ? pastDays.range(symbol, model.spec(symbol)?.startPrice ?? model.basePrice(symbol), { ...range, to: end })
        : model.range(symbol, 'binance', range);
    const spec = model.spec(symbol)!;
    return { status: 200, body: candles.map((c) => klineRow(spec, c)) };
  }
}

/** Symbols in stream names are lowercase; `!…@arr` names are fixed. */
function normalizeStream(name: string): string {
  if (name.startsWith('!')) return name;
  const at = name.indexOf('@');
  return at < 0 ? name.toLowerCase() : name.slice(0, at).toLowerCase() + name.slice(at);
}

function splitStream(topic: string): [string, string] {
  const at = topic.indexOf('@');
  return at < 0 ? [topic, ''] : [topic.slice(0, at), topic.slice(at + 1)];
}
