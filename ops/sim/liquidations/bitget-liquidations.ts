/** Bitget public WebSocket v3 (`/bitget/v3/ws/public`): topic `liquidation` per instType; side = the position's side. */
import { fmt } from '../format.js';
import type { LiquidationEvent } from '../sim-types.js';
import { isRecord, parseJson, type HubClient } from '../ws-hub.js';
import { LiquidationVenueBase } from './liquidation-venue.js';

const INST_TYPES = new Set(['usdt-futures', 'usdc-futures', 'coin-futures']);

export class BitgetLiquidations extends LiquidationVenueBase {
  readonly exchange = 'bitget';

  acceptsWs(path: string): boolean {
    return path === '/v3/ws/public';
  }

  protected frames(ev: LiquidationEvent): string[] {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return [];
    const row = {
      symbol: spec.symbol,
      side: ev.side === 'long' ? 'buy' : 'sell',
      price: fmt(ev.price, spec.priceDp),
      amount: String(ev.qty),
      ts: String(ev.ts),
    };
    return [
      JSON.stringify({ action: 'update', arg: { instType: 'usdt-futures', topic: 'liquidation' }, data: [row], ts: this.deps.now() }),
    ];
  }

  protected onText(client: HubClient, text: string): void {
    if (text === 'ping') {
      this.hub.send(client, 'pong');
      return;
    }
    const msg = parseJson(text);
    if (!isRecord(msg) || (msg.op !== 'subscribe' && msg.op !== 'unsubscribe') || !Array.isArray(msg.args)) {
      this.hub.send(client, { event: 'error', code: '30001', msg: 'Invalid request', connId: client.connId });
      return;
    }
    for (const arg of msg.args) {
      const ok = isRecord(arg) && arg.topic === 'liquidation' && typeof arg.instType === 'string' && INST_TYPES.has(arg.instType);
      if (!ok) {
        this.hub.send(client, { event: 'error', arg, code: '30016', msg: 'Param error', connId: client.connId });
        continue;
      }
      this.hub.send(client, { event: msg.op, arg, connId: client.connId });
      // one subscription carries every instType in the sim; the first one replays
      if (msg.op === 'subscribe' && arg.instType === 'usdt-futures') this.subscribe(client);
      if (msg.op === 'unsubscribe') client.subs.clear();
    }
  }
}
