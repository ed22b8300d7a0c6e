/** Bybit v5, category=linear: /v5/market REST and the /v5/public/linear WebSocket. */
import { simBook } from './depth.js';
import type { WebSocket } from 'ws';
import type { Candle } from '../market-model.js';
import type { LiquidationEvent, RestReply, RestRequest, Venue, VenueDeps } from '../sim-types.js';
import { intParam, isRecord, parseJson, WsHub, type HubClient } from '../ws-hub.js';
import {
  allLiquidation,
  envelope,
  instrument,
  klineRow,
  restTicker,
  tickerDelta,
  wsKline,
  wsTicker,
  type BybitContract,
} from './bybit-format.js';
import { clampLimit } from './common.js';
import { bybitDerivativesRest } from '../derivatives/bybit-derivatives.js';

const TOPIC = /^(tickers|kline\.1|allLiquidation)\.([A-Z0-9]+)$/;

export class BybitVenue implements Venue {
  readonly id = 'bybit' as const;
  readonly exchange = 'bybit';
  private readonly hub = new WsHub();
  /** Cross sequence (`cs`) of ticker frames. */
  private cs = 1_000_000;

  constructor(private readonly deps: VenueDeps) {}

  handleRest(req: RestRequest): RestReply | undefined {
    if (req.method !== 'GET') return undefined;
    const { query } = req;
    const now = this.deps.now();
    if (req.path === '/v5/market/time') {
      return this.ok({ timeSecond: String(Math.floor(now / 1000)), timeNano: `${now}000000` });
    }
    const route = ['/v5/market/instruments-info', '/v5/market/tickers', '/v5/market/kline', '/v5/market/orderbook'].indexOf(req.path);
    // open-interest and account-ratio (ops/sim/derivatives)
    if (route < 0) return bybitDerivativesRest(req, this.deps);
    const category = query.get('category');
    if (category !== 'linear') return this.fail(10001, category ? 'Illegal category' : 'params error: category is required');
    if (route === 0) return this.instruments(query);
    if (route === 1) return this.tickers(query.get('symbol'));
    if (route === 3) return this.orderbook(query);
    return this.klines(query);
  }

  acceptsWs(path: string): boolean {
    return path === '/v5/public/linear';
  }

  onConnection(ws: WebSocket, path: string): void {
    this.hub.add(ws, path, (c, text) => this.onText(c, text));
  }

  pushTick(): void {
    for (const topic of this.hub.activeTopics()) {
      const m = TOPIC.exec(topic);
      if (!m) continue;
      if (m[1] === 'tickers') for (const c of this.hub.subscribers(topic)) this.sendTicker(c, m[2]);
      else if (m[1] === 'kline.1') this.publishKline(m[2], undefined);
    }
  }

  pushSymbol(symbol: string): void {
    for (const c of this.hub.subscribers(`tickers.${symbol}`)) this.sendTicker(c, symbol);
    this.publishKline(symbol, undefined);
  }

  pushClosedCandle(symbol: string, candle: Candle): void {
    this.publishKline(symbol, candle);
  }

  publishLiquidation(ev: LiquidationEvent): number {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return 0;
    return this.hub.publish(`allLiquidation.${ev.symbol}`, allLiquidation(spec, ev, this.deps.now()));
  }

  dropAll(): number {
    return this.hub.terminateAll();
  }

  connectionCount(): number {
    return this.hub.size;
  }

  private ok(result: unknown): RestReply {
    return { status: 200, body: envelope(result, this.deps.now()) };
  }

  private fail(code: number, msg: string): RestReply {
    return { status: 200, body: envelope({}, this.deps.now(), code, msg) };
  }

  /** USDT perpetuals (no index ones: bybit-format.ts) plus BTCPERP (USDC-settled), which the real linear category also lists. */
  private contracts(): BybitContract[] {
    const { model } = this.deps;
    const listed = model.symbols.filter((spec) => spec.assetClass !== 'index');
    const out: BybitContract[] = listed.map((spec) => ({ name: spec.symbol, spec, settle: 'USDT' as const }));
    out.push({ name: `${model.symbols[0].base}PERP`, spec: model.symbols[0], settle: 'USDC' });
    return out;
  }

  private instruments(query: URLSearchParams): RestReply {
    const { model } = this.deps;
    const symbol = query.get('symbol');
    let list = this.contracts();
    if (symbol) list = list.filter((k) => k.name === symbol);
    const limit = clampLimit(intParam(query, 'limit'), 500, 1000);
    const cursor = query.get('cursor');
    const offset = cursor ? decodeCursor(cursor) : 0;
    if (offset === undefined) return this.fail(10001, 'params error: cursor invalid');
    const page = list.slice(offset, offset + limit);
    const next = offset + limit < list.length ? encodeCursor(offset + limit) : '';
    return this.ok({
      category: 'linear',
      list: page.map((k) => instrument(k, model.price(k.spec.symbol, 'bybit'))),
      nextPageCursor: next,
    });
  }

  /** GET /v5/market/orderbook (linear: limit 1-500, default 25): {s, b, a, ts, u, seq, cts} (test/fixtures/bybit-v5/orderbook.json). */
  private orderbook(query: URLSearchParams): RestReply {
    const { model } = this.deps;
    const symbol = query.get('symbol');
    if (!symbol) return this.fail(10001, 'params error: symbol is required');
    if (!model.has(symbol)) return this.fail(10001, 'params error: symbol invalid');
    const limit = intParam(query, 'limit');
    if (limit === null || (limit !== undefined && (limit < 1 || limit > 500))) return this.fail(10001, 'params error: limit invalid');
    const now = this.deps.now();
    const book = simBook(symbol, model.price(symbol, 'bybit'), limit ?? 25);
    return this.ok({ s: symbol, b: book.bids, a: book.asks, ts: now, u: now, seq: now, cts: now });
  }

  private tickers(symbol: string | null): RestReply {
    const { model } = this.deps;
    let list = this.contracts();
    if (symbol) {
      list = list.filter((k) => k.name === symbol);
      if (list.length === 0) return this.fail(10001, 'params error: symbol invalid');
    }
    return this.ok({ category: 'linear', list: list.map((k) => restTicker(model.quote(k.spec.symbol, 'bybit'), k.name)) });
  }

  private klines(query: URLSearchParams): RestReply {
    const { model } = this.deps;
    const symbol = query.get('symbol');
    if (!symbol || !model.has(symbol)) return this.fail(10001, 'params error: symbol invalid');
    if (query.get('interval') !== '1') return this.fail(10001, 'params error: interval invalid');
    const start = intParam(query, 'start');
    const end = intParam(query, 'end');
    const limit = intParam(query, 'limit');
    if (start === null || end === null || limit === null) return this.fail(10001, 'params error');
    const candles = model.range(symbol, 'bybit', {
      from: start,
      to: end,
      limit: clampLimit(limit, 200, 1000),
      // a start without an end pages forward from start; otherwise the newest candles win
      anchor: start !== undefined && end === undefined ? 'start' : 'end',
    });
    const spec = model.spec(symbol)!;
    return this.ok({ symbol, category: 'linear', list: candles.reverse().map((c) => klineRow(spec, c)) });
  }

  private sendTicker(client: HubClient, symbol: string): void {
    const key = `tickers.${symbol}`;
    const prev = client.state.get(key) as Record<string, string> | undefined;
    const next = wsTicker(this.deps.model.quote(symbol, 'bybit'), prev);
    const data = prev ? tickerDelta(prev, next) : next;
    client.state.set(key, next);
    if (!data) return;
    const now = this.deps.now();
    this.hub.send(client, { topic: key, type: prev ? 'delta' : 'snapshot', data, cs: this.cs++, ts: now });
  }

  private publishKline(symbol: string, closed: Candle | undefined): void {
    const { model, now } = this.deps;
    const spec = model.spec(symbol);
    if (!spec) return;
    const c = closed ? model.venueCandle(symbol, 'bybit', closed) : model.currentCandle(symbol, 'bybit');
    this.hub.publish(`kline.1.${symbol}`, wsKline(spec, c, closed !== undefined, now()));
  }

  private onText(client: HubClient, text: string): void {
    const msg = parseJson(text);
    const base = { conn_id: client.connId };
    if (!isRecord(msg)) {
      this.hub.send(client, { success: false, ret_msg: 'error:request not json', ...base, req_id: '', op: '' });
      return;
    }
    const reqId = typeof msg.req_id === 'string' ? msg.req_id : '';
    const op = typeof msg.op === 'string' ? msg.op : '';
    if (op === 'ping') {
      this.hub.send(client, { success: true, ret_msg: 'pong', ...base, req_id: reqId, op: 'ping' });
      return;
    }
    if (op !== 'subscribe' && op !== 'unsubscribe') {
      this.hub.send(client, { success: false, ret_msg: `error:unsupported op:${op}`, ...base, req_id: reqId, op });
      return;
    }
    const args = Array.isArray(msg.args) ? msg.args : [];
    const bad = args.filter((a) => typeof a !== 'string' || !this.validTopic(a)).map(String);
    const good = args.filter((a): a is string => typeof a === 'string' && this.validTopic(a));
    for (const topic of good) {
      if (op === 'subscribe') client.subs.add(topic);
      else {
        client.subs.delete(topic);
        client.state.delete(topic);
      }
    }
    const ok = bad.length === 0 && args.length > 0;
    const retMsg = ok ? '' : args.length === 0 ? 'error:args is empty' : `error:handler not found,topic:${bad.join(',')}`;
    this.hub.send(client, { success: ok, ret_msg: retMsg, ...base, req_id: reqId, op });
    if (op !== 'subscribe') return;
    // like the real feed, a fresh subscription gets a snapshot right away
    for (const topic of good) {
      const m = TOPIC.exec(topic)!;
      if (m[1] === 'tickers' && !client.state.has(topic)) this.sendTicker(client, m[2]);
      else if (m[1] === 'kline.1') {
        const spec = this.deps.model.spec(m[2])!;
        this.hub.send(client, wsKline(spec, this.deps.model.currentCandle(m[2], 'bybit'), false, this.deps.now()));
      }
    }
  }

  private validTopic(topic: string): boolean {
    const m = TOPIC.exec(topic);
    return m !== null && this.deps.model.has(m[2]);
  }
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset=${offset}`).toString('base64url');
}

function decodeCursor(cursor: string): number | undefined {
  const m = /^offset=(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}
