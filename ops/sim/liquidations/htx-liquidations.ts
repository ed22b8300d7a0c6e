/**
 * HTX USDT-margined swaps (`/htx/linear-swap-notification`): `public.$contract_code.liquidation_orders`
 * (`*` for all) with gzip-compressed frames, a server `{"op":"ping"}` every 5 s that clients answer.
 * `direction` is the liquidation order's side; volume in contracts, amount in coin, turnover in USDT.
 */
import { gzipSync } from 'node:zlib';
import type { WebSocket } from 'ws';
import type { LiquidationEvent } from '../sim-types.js';
import type { SymbolSpec } from '../symbols.js';
import { isRecord, parseJson, type HubClient } from '../ws-hub.js';
import { clean, LiquidationVenueBase } from './liquidation-venue.js';

const TOPIC = /^public\.([A-Z0-9]+-USDT|\*)\.liquidation_orders$/;
const PING_MS = 5_000;

/** Coin per contract: 0.001 BTC, 0.01 ETH, 1 of a cheaper coin... */
export function htxContractSize(spec: SymbolSpec): number {
  return Math.min(1, Math.pow(10, Math.floor(Math.log10(100 / spec.startPrice))));
}

export class HtxLiquidations extends LiquidationVenueBase {
  readonly exchange = 'htx';
  private pinger: NodeJS.Timeout | undefined;

  acceptsWs(path: string): boolean {
    return path === '/linear-swap-notification';
  }

  override onConnection(ws: WebSocket, path: string): void {
    super.onConnection(ws, path);
    // the server pings every client; it must answer with a pong
    if (!this.pinger) {
      this.pinger = setInterval(() => {
        for (const client of this.hub.all()) this.deliver(client, JSON.stringify({ op: 'ping', ts: String(this.deps.now()) }));
      }, PING_MS);
      this.pinger.unref();
    }
  }

  protected override deliver(client: HubClient, frame: string): void {
    if (client.ws.readyState === client.ws.OPEN) client.ws.send(gzipSync(frame));
  }

  protected frames(ev: LiquidationEvent): string[] {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return [];
    const code = `${spec.base}-USDT`;
    const row = {
      symbol: spec.base,
      contract_code: code,
      direction: ev.side === 'long' ? 'sell' : 'buy',
      offset: 'close',
      volume: clean(ev.qty / htxContractSize(spec)),
      price: ev.price,
      created_at: ev.ts,
      amount: ev.qty,
      trade_turnover: clean(ev.qty * ev.price, 6),
    };
    return [JSON.stringify({ op: 'notify', topic: `public.${code}.liquidation_orders`, ts: this.deps.now(), data: [row] })];
  }

  protected onText(client: HubClient, text: string): void {
    const msg = parseJson(text);
    if (!isRecord(msg) || typeof msg.op !== 'string') return;
    if (msg.op === 'pong' || msg.op === 'ping') return;
    const ts = this.deps.now();
    const topic = typeof msg.topic === 'string' ? msg.topic : '';
    if ((msg.op !== 'sub' && msg.op !== 'unsub') || !TOPIC.test(topic)) {
      this.deliver(client, JSON.stringify({ op: msg.op, cid: msg.cid, topic, ts, 'err-code': 2011, 'err-msg': 'invalid topic' }));
      return;
    }
    this.deliver(client, JSON.stringify({ op: msg.op, cid: msg.cid, topic, ts, 'err-code': 0 }));
    if (msg.op === 'sub') this.subscribe(client);
    else client.subs.clear();
  }

  override dropAll(): number {
    clearInterval(this.pinger);
    this.pinger = undefined;
    return super.dropAll();
  }
}
