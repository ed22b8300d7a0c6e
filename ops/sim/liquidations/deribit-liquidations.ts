/**
 * Deribit JSON-RPC (`/deribit/ws/api/v2`): `trades.future.<CCY>.100ms` trades flagged `liquidation`.
 * BTC and ETH trade as inverse perpetuals (amount in USD), other coins as <COIN>_USDC-PERPETUAL
 * (amount in coin, channel currency USDC). A liquidated long shows as a taker sell with "T".
 */
import type { LiquidationEvent } from '../sim-types.js';
import type { SymbolSpec } from '../symbols.js';
import { isRecord, parseJson, type HubClient } from '../ws-hub.js';
import { clean, LIQ_TOPIC, LiquidationVenueBase } from './liquidation-venue.js';

const CHANNEL = /^trades\.future\.(BTC|ETH|USDC|any)\.(100ms|raw|agg2)$/;

function instrument(spec: SymbolSpec): { name: string; currency: string; inverse: boolean } {
  if (spec.base === 'BTC' || spec.base === 'ETH') return { name: `${spec.base}-PERPETUAL`, currency: spec.base, inverse: true };
  return { name: `${spec.base}_USDC-PERPETUAL`, currency: 'USDC', inverse: false };
}

export class DeribitLiquidations extends LiquidationVenueBase {
  readonly exchange = 'deribit';
  private tradeSeq = 50_000_000;

  acceptsWs(path: string): boolean {
    return path === '/ws/api/v2';
  }

  protected frames(ev: LiquidationEvent): string[] {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return [];
    const inst = instrument(spec);
    const seq = ++this.tradeSeq;
    const trade = {
      trade_seq: seq,
      trade_id: String(seq + 40_000_000),
      timestamp: ev.ts,
      tick_direction: ev.side === 'long' ? 3 : 1,
      price: ev.price,
      index_price: ev.price,
      instrument_name: inst.name,
      direction: ev.side === 'long' ? 'sell' : 'buy',
      amount: inst.inverse ? clean(ev.qty * ev.price, 4) : ev.qty,
      liquidation: 'T',
    };
    return [
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'subscription',
        params: { channel: `trades.future.${inst.currency}.100ms`, data: [trade] },
      }),
    ];
  }

  protected onText(client: HubClient, text: string): void {
    const msg = parseJson(text);
    if (!isRecord(msg) || typeof msg.method !== 'string') {
      this.hub.send(client, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      return;
    }
    const id = typeof msg.id === 'number' || typeof msg.id === 'string' ? msg.id : null;
    const params = isRecord(msg.params) ? msg.params : {};
    switch (msg.method) {
      case 'public/test':
        this.hub.send(client, { jsonrpc: '2.0', id, result: { version: '1.2.26-sim' }, testnet: false });
        return;
      case 'public/set_heartbeat':
        this.hub.send(client, { jsonrpc: '2.0', id, result: 'ok' });
        return;
      case 'public/subscribe':
      case 'public/unsubscribe': {
        const channels = Array.isArray(params.channels)
          ? params.channels.filter((c): c is string => typeof c === 'string' && CHANNEL.test(c))
          : [];
        this.hub.send(client, { jsonrpc: '2.0', id, result: channels });
        if (msg.method === 'public/unsubscribe') client.subs.clear();
        else if (channels.length > 0 && !client.subs.has(LIQ_TOPIC)) this.subscribe(client);
        return;
      }
      default:
        this.hub.send(client, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    }
  }
}
