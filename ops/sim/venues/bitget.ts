/** Bitget v2 mix, productType USDT-FUTURES: /api/v2/mix/market REST and /v2/ws/public. */
import type { WebSocket } from 'ws';
import type { Candle } from '../market-model.js';
import type { LiquidationEvent, RestReply, RestRequest, Venue, VenueDeps } from '../sim-types.js';
import { intParam, isRecord, parseJson, WsHub, type HubClient } from '../ws-hub.js';
import { candleRow, contract, envelope, restTicker, wsTicker } from './bitget-format.js';
import { clampLimit } from './common.js';

const PRODUCT = 'USDT-FUTURES';
const CHANNELS = new Set(['ticker', 'candle1m']);
/** Rows in the snapshot a fresh candle subscription receives. */
const CANDLE_SNAPSHOT = 100;

export class BitgetVenue implements Venue {
  readonly id = 'bitget' as const;
  readonly exchange = 'bitget';
  private readonly hub = new WsHub();

  constructor(private readonly deps: VenueDeps) {}

  handleRest(req: RestRequest): RestReply | undefined {
    if (req.method !== 'GET') return undefined;
    const { query } = req;
    switch (req.path) {
      case '/api/v2/public/time':
        return this.ok({ serverTime: String(this.deps.now()) });
      case '/api/v2/mix/market/contracts':
        return this.withProduct(query, () => this.contracts(query.get('symbol')));
      case '/api/v2/mix/market/tickers':
        return this.withProduct(query, () =>
          this.ok(this.deps.model.symbols.map((s) => restTicker(this.deps.model.quote(s.symbol, 'bitget')))),
        );
      case '/api/v2/mix/market/ticker':
        return this.withProduct(query, () => {
          const symbol = query.get('symbol');
          if (!symbol || !this.deps.model.has(symbol)) return this.fail(400, '40034', 'Parameter symbol does not exist');
          return this.ok([restTicker(this.deps.model.quote(symbol, 'bitget'))]);
        });
      case '/api/v2/mix/market/candles':
        return this.withProduct(query, () => this.candles(query, 1000));
      case '/api/v2/mix/market/history-candles':
        return this.withProduct(query, () => this.candles(query, 200));
      default:
        return undefined;
    }
  }

  acceptsWs(path: string): boolean {
    return path === '/v2/ws/public';
  }

  onConnection(ws: WebSocket, path: string): void {
    this.hub.add(ws, path, (c, text) => this.onText(c, text));
  }

  pushTick(): void {
    for (const topic of this.hub.activeTopics()) {
      const [channel, symbol] = topic.split(':');
      if (!this.deps.model.has(symbol)) continue;
      if (channel === 'ticker') this.publishTicker(symbol);
      else this.publishCandle(symbol, undefined);
    }
  }

  pushSymbol(symbol: string): void {
    this.publishTicker(symbol);
    this.publishCandle(symbol, undefined);
  }

  pushClosedCandle(symbol: string, candle: Candle): void {
    this.publishCandle(symbol, candle);
  }

  /** Bitget v2 public has no liquidation channel; events are accepted and recorded only. */
  publishLiquidation(_ev: LiquidationEvent): number {
    return 0;
  }

  dropAll(): number {
    return this.hub.terminateAll();
  }

  connectionCount(): number {
    return this.hub.size;
  }

  private ok(data: unknown): RestReply {
    return { status: 200, body: envelope(data, this.deps.now()) };
  }

  private fail(status: number, code: string, msg: string): RestReply {
    return { status, body: envelope(null, this.deps.now(), code, msg) };
  }

  /** productType is mandatory; the real API accepts it in any case. Other products list nothing here. */
  private withProduct(query: URLSearchParams, run: () => RestReply): RestReply {
    const product = query.get('productType');
    if (!product) return this.fail(400, '40019', 'Parameter productType cannot be empty');
    if (product.toUpperCase() !== PRODUCT) return this.ok([]);
    return run();
  }

  private contracts(symbol: string | null): RestReply {
    const { model } = this.deps;
    const specs = symbol ? model.symbols.filter((s) => s.symbol === symbol) : model.symbols;
    if (symbol && specs.length === 0) return this.fail(400, '40034', 'Parameter symbol does not exist');
    return this.ok(specs.map((s) => contract(s, model.price(s.symbol, 'bitget'))));
  }

  /** Oldest first; a startTime without endTime pages forward, otherwise the newest candles win. */
  private candles(query: URLSearchParams, maxLimit: number): RestReply {
    const { model } = this.deps;
    const symbol = query.get('symbol');
    if (!symbol || !model.has(symbol)) return this.fail(400, '40034', 'Parameter symbol does not exist');
    const granularity = query.get('granularity');
    if (!granularity) return this.fail(400, '40019', 'Parameter granularity cannot be empty');
    if (granularity !== '1m') return this.fail(400, '40020', 'Parameter granularity error');
    const start = intParam(query, 'startTime');
    const end = intParam(query, 'endTime');
    const limit = intParam(query, 'limit');
    if (start === null || end === null || limit === null) return this.fail(400, '40020', 'Parameter verification failed');
    const candles = model.range(symbol, 'bitget', {
      from: start,
      to: end,
      limit: clampLimit(limit, 100, maxLimit),
      anchor: start !== undefined && end === undefined ? 'start' : 'end',
    });
    const spec = model.spec(symbol)!;
    return this.ok(candles.map((c) => candleRow(spec, c, false)));
  }

  private publishTicker(symbol: string): void {
    const data = [wsTicker(this.deps.model.quote(symbol, 'bitget'))];
    const arg = { instType: PRODUCT, channel: 'ticker', instId: symbol };
    this.hub.publish(`ticker:${symbol}`, { action: 'snapshot', arg, data, ts: this.deps.now() });
  }

  private publishCandle(symbol: string, closed: Candle | undefined): void {
    const { model, now } = this.deps;
    const spec = model.spec(symbol);
    if (!spec) return;
    const c = closed ? model.venueCandle(symbol, 'bitget', closed) : model.currentCandle(symbol, 'bitget');
    const arg = { instType: PRODUCT, channel: 'candle1m', instId: symbol };
    this.hub.publish(`candle1m:${symbol}`, { action: 'update', arg, data: [candleRow(spec, c, true)], ts: now() });
  }

  private onText(client: HubClient, text: string): void {
    if (text === 'ping') {
      this.hub.send(client, 'pong');
      return;
    }
    const msg = parseJson(text);
    if (!isRecord(msg) || (msg.op !== 'subscribe' && msg.op !== 'unsubscribe') || !Array.isArray(msg.args)) {
      this.hub.send(client, { event: 'error', code: 30001, msg: `Invalid request: ${text.slice(0, 100)}` });
      return;
    }
    const op = msg.op;
    for (const raw of msg.args) {
      const arg = isRecord(raw) ? raw : {};
      const instType = typeof arg.instType === 'string' ? arg.instType : '';
      const channel = typeof arg.channel === 'string' ? arg.channel : '';
      const instId = typeof arg.instId === 'string' ? arg.instId : '';
      const echo = { instType, channel, instId };
      if (instType.toUpperCase() !== PRODUCT || !CHANNELS.has(channel) || !this.deps.model.has(instId)) {
        const m = `instType:${instType},channel:${channel},instId:${instId} doesn't exist`;
        this.hub.send(client, { event: 'error', arg: echo, code: 30001, msg: m, op });
        continue;
      }
      const topic = `${channel}:${instId}`;
      if (op === 'unsubscribe') client.subs.delete(topic);
      else client.subs.add(topic);
      this.hub.send(client, { event: op, arg: echo });
      if (op === 'subscribe') this.sendSnapshot(client, channel, instId);
    }
  }

  /** A fresh subscription first gets a snapshot: the ticker, or the latest candles oldest first. */
  private sendSnapshot(client: HubClient, channel: string, symbol: string): void {
    const { model, now } = this.deps;
    const arg = { instType: PRODUCT, channel, instId: symbol };
    if (channel === 'ticker') {
      this.hub.send(client, { action: 'snapshot', arg, data: [wsTicker(model.quote(symbol, 'bitget'))], ts: now() });
      return;
    }
    const spec = model.spec(symbol)!;
    const rows = model.range(symbol, 'bitget', { limit: CANDLE_SNAPSHOT, anchor: 'end' }).map((c) => candleRow(spec, c, true));
    this.hub.send(client, { action: 'snapshot', arg, data: rows, ts: now() });
  }
}
