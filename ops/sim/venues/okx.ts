/** OKX v5: public REST, /ws/v5/public (tickers) and /ws/v5/business (candle1m). */
import type { WebSocket } from 'ws';
import { MINUTE, type Candle } from '../market-model.js';
import type { LiquidationEvent, RestReply, RestRequest, Venue, VenueDeps } from '../sim-types.js';
import { intParam, isRecord, parseJson, WsHub, type HubClient } from '../ws-hub.js';
import { clampLimit } from './common.js';
import { candleRow, envelope, instrument, OKX_CATEGORY, ticker, usdtInstId, type OkxContract } from './okx-format.js';
import { okxDerivativesRest } from '../derivatives/okx-derivatives.js';
import { OKX_LIQUIDATION_CHANNEL, okxLiquidationFrame, okxLiquidationTopic } from '../liquidations/okx-liquidations.js';

const PUBLIC = '/ws/v5/public';
const BUSINESS = '/ws/v5/business';
/** Which socket path serves which channel (OKX moved candles to /business). */
const CHANNEL_PATH: Record<string, string> = { tickers: PUBLIC, candle1m: BUSINESS };
/** /market/candles only reaches back this far; older bars come from /history-candles. */
const RECENT_CANDLES = 1440;

const fail = (status: number, code: string, msg: string): RestReply => ({ status, body: envelope([], code, msg) });

export class OkxVenue implements Venue {
  readonly id = 'okx' as const;
  readonly exchange = 'okx';
  private readonly hub = new WsHub();

  constructor(private readonly deps: VenueDeps) {}

  handleRest(req: RestRequest): RestReply | undefined {
    if (req.method !== 'GET') return undefined;
    const { query } = req;
    switch (req.path) {
      case '/api/v5/public/time':
        return { status: 200, body: envelope([{ ts: String(this.deps.now()) }]) };
      case '/api/v5/public/instruments':
        return this.instruments(query);
      case '/api/v5/market/tickers':
        return this.tickers(query);
      case '/api/v5/market/ticker': {
        const instId = query.get('instId');
        if (!instId) return fail(400, '50014', 'Parameter instId can not be empty.');
        const k = this.contracts().find((c) => c.instId === instId);
        if (!k) return fail(200, '51001', "Instrument ID, Instrument ID code, or Spread ID doesn't exist.");
        return { status: 200, body: envelope([ticker(this.deps.model.quote(k.spec.symbol, 'okx'), k)]) };
      }
      case '/api/v5/market/candles':
        return this.candles(query, 300, true);
      case '/api/v5/market/history-candles':
        return this.candles(query, 100, false);
      default:
        // funding-rate and open-interest (ops/sim/derivatives)
        return okxDerivativesRest(req, this.deps);
    }
  }

  acceptsWs(path: string): boolean {
    return path === PUBLIC || path === BUSINESS;
  }

  onConnection(ws: WebSocket, path: string): void {
    this.hub.add(ws, path, (c, text) => this.onText(c, text));
  }

  pushTick(): void {
    for (const topic of this.hub.activeTopics()) {
      const [channel, instId] = topic.split(':');
      const k = this.usdtContract(instId);
      if (!k) continue;
      if (channel === 'tickers') this.publishTicker(k);
      else if (channel === 'candle1m') this.publishCandle(k, undefined);
    }
  }

  pushSymbol(symbol: string): void {
    const spec = this.deps.model.spec(symbol);
    if (!spec) return;
    const k: OkxContract = { instId: usdtInstId(spec), spec, inverse: false };
    this.publishTicker(k);
    this.publishCandle(k, undefined);
  }

  pushClosedCandle(symbol: string, candle: Candle): void {
    const spec = this.deps.model.spec(symbol);
    if (spec) this.publishCandle({ instId: usdtInstId(spec), spec, inverse: false }, candle);
  }

  /** liquidation-orders (SWAP) on /ws/v5/public, in ops/sim/liquidations/okx-liquidations.ts. */
  publishLiquidation(ev: LiquidationEvent): number {
    const spec = this.deps.model.spec(ev.symbol);
    return spec ? this.hub.publish(okxLiquidationTopic('SWAP'), okxLiquidationFrame(spec, ev)) : 0;
  }

  dropAll(): number {
    return this.hub.terminateAll();
  }

  connectionCount(): number {
    return this.hub.size;
  }

  /** USDT swaps of the classes OKX is known to list (okx-format.ts), plus two inverse swaps, as the real SWAP list has. */
  private contracts(): OkxContract[] {
    const { symbols } = this.deps.model;
    const listed = symbols.filter((spec) => OKX_CATEGORY[spec.assetClass] !== undefined);
    const out: OkxContract[] = listed.map((spec) => ({ instId: usdtInstId(spec), spec, inverse: false }));
    for (const spec of symbols.slice(0, 2)) out.push({ instId: `${spec.base}-USD-SWAP`, spec, inverse: true });
    return out;
  }

  private usdtContract(instId: string | undefined): OkxContract | undefined {
    const m = /^([A-Z0-9]+)-USDT-SWAP$/.exec(instId ?? '');
    const spec = m ? this.deps.model.spec(`${m[1]}USDT`) : undefined;
    return spec ? { instId: usdtInstId(spec), spec, inverse: false } : undefined;
  }

  private instruments(query: URLSearchParams): RestReply {
    const instType = query.get('instType');
    if (!instType) return fail(400, '50014', 'Parameter instType can not be empty.');
    if (instType !== 'SWAP') return { status: 200, body: envelope([]) };
    const instId = query.get('instId');
    const family = query.get('instFamily') ?? query.get('uly');
    const list = this.contracts()
      .map((k) => instrument(k, this.deps.model.isMarketClosed(k.spec.symbol)))
      .filter((i) => (!instId || i.instId === instId) && (!family || i.instFamily === family));
    return { status: 200, body: envelope(list) };
  }

  private tickers(query: URLSearchParams): RestReply {
    const instType = query.get('instType');
    if (!instType) return fail(400, '50014', 'Parameter instType can not be empty.');
    if (instType !== 'SWAP') return { status: 200, body: envelope([]) };
    const { model } = this.deps;
    return { status: 200, body: envelope(this.contracts().map((k) => ticker(model.quote(k.spec.symbol, 'okx'), k))) };
  }

  /** after: bars older than ts; before: bars newer than ts (both exclusive); newest first. */
  private candles(query: URLSearchParams, maxLimit: number, recentOnly: boolean): RestReply {
    const { model, now } = this.deps;
    const instId = query.get('instId');
    if (!instId) return fail(400, '50014', 'Parameter instId can not be empty.');
    const k = this.usdtContract(instId);
    if (!k) return fail(200, '51001', "Instrument ID, Instrument ID code, or Spread ID doesn't exist.");
    const bar = query.get('bar') ?? '1m';
    if (bar !== '1m') return fail(400, '51000', 'Parameter bar error');
    const after = intParam(query, 'after');
    const before = intParam(query, 'before');
    const limit = intParam(query, 'limit');
    if (after === null || before === null || limit === null) return fail(400, '51000', 'Parameter after error');
    let from = before !== undefined ? before + 1 : undefined;
    if (recentOnly) from = Math.max(from ?? 0, Math.floor(now() / MINUTE) * MINUTE - (RECENT_CANDLES - 1) * MINUTE);
    const candles = model.range(k.spec.symbol, 'okx', {
      from,
      to: after !== undefined ? after - 1 : undefined,
      limit: clampLimit(limit, 100, maxLimit),
      anchor: 'end',
    });
    const currentT = Math.floor(now() / MINUTE) * MINUTE;
    const rows = candles.reverse().map((c) => candleRow(k, c, c.t < currentT));
    return { status: 200, body: envelope(rows) };
  }

  private publishTicker(k: OkxContract): void {
    const data = [ticker(this.deps.model.quote(k.spec.symbol, 'okx'), k)];
    this.hub.publish(`tickers:${k.instId}`, { arg: { channel: 'tickers', instId: k.instId }, data });
  }

  private publishCandle(k: OkxContract, closed: Candle | undefined): void {
    const { model } = this.deps;
    const c = closed ? model.venueCandle(k.spec.symbol, 'okx', closed) : model.currentCandle(k.spec.symbol, 'okx');
    const data = [candleRow(k, c, closed !== undefined)];
    this.hub.publish(`candle1m:${k.instId}`, { arg: { channel: 'candle1m', instId: k.instId }, data });
  }

  private onText(client: HubClient, text: string): void {
    if (text === 'ping') {
      this.hub.send(client, 'pong');
      return;
    }
    const msg = parseJson(text);
    const connId = client.connId.slice(0, 8);
    if (!isRecord(msg)) {
      this.hub.send(client, { event: 'error', code: '60012', msg: `Invalid request: ${text.slice(0, 100)}`, connId });
      return;
    }
    const id = typeof msg.id === 'string' ? { id: msg.id } : {};
    const op = msg.op;
    if ((op !== 'subscribe' && op !== 'unsubscribe') || !Array.isArray(msg.args)) {
      this.hub.send(client, { ...id, event: 'error', code: '60012', msg: `Invalid request: ${text.slice(0, 100)}`, connId });
      return;
    }
    for (const raw of msg.args) {
      const arg = isRecord(raw) ? raw : {};
      const channel = typeof arg.channel === 'string' ? arg.channel : '';
      const instId = typeof arg.instId === 'string' ? arg.instId : '';
      if (channel === OKX_LIQUIDATION_CHANNEL && client.path === PUBLIC && arg.instType === 'SWAP') {
        const topic = okxLiquidationTopic('SWAP');
        if (op === 'unsubscribe') client.subs.delete(topic);
        else client.subs.add(topic);
        this.hub.send(client, { ...id, event: op, arg: { channel, instType: 'SWAP' }, connId });
        continue;
      }
      const k = this.usdtContract(instId);
      if (!k || CHANNEL_PATH[channel] !== client.path) {
        const what = `${channel},instId:${instId}`;
        const msgText =
          `Wrong URL or channel:${what} doesn't exist. Please use the correct URL, channel and parameters referring to ` + `API document.`;
        this.hub.send(client, { ...id, event: 'error', code: '60018', msg: msgText, connId });
        continue;
      }
      const topic = `${channel}:${instId}`;
      if (op === 'unsubscribe') client.subs.delete(topic);
      else client.subs.add(topic);
      this.hub.send(client, { ...id, event: op, arg: { channel, instId }, connId });
      if (op !== 'subscribe') continue;
      // OKX pushes the current state right after a subscription
      if (channel === 'tickers') {
        const data = [ticker(this.deps.model.quote(k.spec.symbol, 'okx'), k)];
        this.hub.send(client, { arg: { channel, instId }, data });
      } else {
        const c = this.deps.model.currentCandle(k.spec.symbol, 'okx');
        this.hub.send(client, { arg: { channel, instId }, data: [candleRow(k, c, false)] });
      }
    }
  }
}
