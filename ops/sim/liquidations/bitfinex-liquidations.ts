/**
 * Bitfinex v2 (`/bitfinex/ws/2`): the `status` channel with key `liq:global`. Each liquidation is
 * `["pos", POS_ID, MTS, null, SYMBOL, AMOUNT, BASE_PRICE, null, IS_MATCH, IS_MARKET_SOLD, null,
 * LIQUIDATION_PRICE]` with AMOUNT the position (positive = a long). The sim reports each position
 * twice, as the exchange does (trigger, then execution), and sends the last minute as a snapshot.
 */
import type { LiquidationEvent } from '../sim-types.js';
import { isRecord, parseJson, type HubClient } from '../ws-hub.js';
import { LiquidationVenueBase, LIQ_TOPIC } from './liquidation-venue.js';

const KEY = 'liq:global';
const CHAN_ID = 91_684;

export class BitfinexLiquidations extends LiquidationVenueBase {
  readonly exchange = 'bitfinex';
  private posId = 170_000_000;

  acceptsWs(path: string): boolean {
    return path === '/ws/2';
  }

  protected frames(ev: LiquidationEvent): string[] {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return [];
    const id = ++this.posId;
    const symbol = `t${spec.base}F0:USTF0`;
    const amount = ev.side === 'long' ? ev.qty : -ev.qty;
    const entry = (isMatch: number) => ['pos', id, ev.ts, null, symbol, amount, ev.price, null, isMatch, 1, null, ev.price];
    return [JSON.stringify([CHAN_ID, [entry(0)]]), JSON.stringify([CHAN_ID, [entry(1)]])];
  }

  protected override welcome(client: HubClient): void {
    this.hub.send(client, { event: 'info', version: 2, serverId: 'sim', platform: { status: 1 } });
  }

  protected onText(client: HubClient, text: string): void {
    const msg = parseJson(text);
    if (!isRecord(msg)) return;
    if (msg.event === 'ping') {
      this.hub.send(client, { event: 'pong', ts: this.deps.now(), cid: msg.cid });
      return;
    }
    if (msg.event === 'subscribe' && msg.channel === 'status' && msg.key === KEY) {
      this.hub.send(client, { event: 'subscribed', channel: 'status', chanId: CHAN_ID, key: KEY });
      if (!client.subs.has(LIQ_TOPIC)) this.subscribe(client);
      return;
    }
    if (msg.event === 'unsubscribe') {
      client.subs.clear();
      this.hub.send(client, { event: 'unsubscribed', status: 'OK', chanId: CHAN_ID });
      return;
    }
    this.hub.send(client, { event: 'error', msg: 'subscribe: invalid', code: 10300 });
  }
}
