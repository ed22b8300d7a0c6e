/**
 * Gate futures v4, USDT-settled: `/gate/v4/ws/usdt` with `futures.public_liquidates` (`!all` or a
 * contract list) and `/gate/api/v4/futures/usdt/contracts`. Sizes are signed contracts of
 * `quanto_multiplier` base coin: negative = a forced sell, a long liquidated.
 */
import { fmt, trim } from '../format.js';
import type { LiquidationEvent, RestReply, RestRequest } from '../sim-types.js';
import type { SymbolSpec } from '../symbols.js';
import { isRecord, parseJson, type HubClient } from '../ws-hub.js';
import { clean, LiquidationVenueBase } from './liquidation-venue.js';

const CHANNEL = 'futures.public_liquidates';

/** Base coin per contract: 0.0001 BTC, 0.001 ETH, ... about 10 USD or less. */
export function gateMultiplier(spec: SymbolSpec): number {
  return Math.pow(10, Math.floor(Math.log10(10 / spec.startPrice)));
}

export class GateLiquidations extends LiquidationVenueBase {
  readonly exchange = 'gate';

  acceptsWs(path: string): boolean {
    return path === '/v4/ws/usdt';
  }

  override handleRest(req: RestRequest): RestReply | undefined {
    if (req.method !== 'GET' || req.path !== '/api/v4/futures/usdt/contracts') return undefined;
    const { model } = this.deps;
    const body = model.symbols.map((spec) => ({
      name: `${spec.base}_USDT`,
      type: 'direct',
      quanto_multiplier: trim(gateMultiplier(spec), 10),
      mark_price: fmt(model.basePrice(spec.symbol), spec.priceDp),
      order_price_round: trim(spec.tick, spec.priceDp),
      leverage_min: '1',
      leverage_max: '100',
      in_delisting: false,
    }));
    return { status: 200, body };
  }

  protected frames(ev: LiquidationEvent): string[] {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return [];
    const contracts = clean(ev.qty / gateMultiplier(spec));
    const size = ev.side === 'long' ? -contracts : contracts;
    const now = this.deps.now();
    const row = { price: ev.price, size, time_ms: ev.ts, contract: `${spec.base}_USDT` };
    return [JSON.stringify({ channel: CHANNEL, event: 'update', time: Math.floor(now / 1000), time_ms: now, result: [row] })];
  }

  protected onText(client: HubClient, text: string): void {
    const msg = parseJson(text);
    const now = this.deps.now();
    const base = { time: Math.floor(now / 1000), time_ms: now };
    if (!isRecord(msg) || typeof msg.channel !== 'string') {
      this.hub.send(client, { ...base, channel: '', event: '', error: { code: 2, message: 'invalid argument' }, result: null });
      return;
    }
    if (msg.channel === 'futures.ping') {
      this.hub.send(client, { ...base, channel: 'futures.pong', event: '', result: null });
      return;
    }
    if (msg.channel !== CHANNEL || (msg.event !== 'subscribe' && msg.event !== 'unsubscribe') || !Array.isArray(msg.payload)) {
      this.hub.send(client, {
        ...base,
        channel: msg.channel,
        event: msg.event,
        error: { code: 2, message: 'invalid argument' },
        result: null,
      });
      return;
    }
    this.hub.send(client, { ...base, channel: CHANNEL, event: msg.event, result: { status: 'success' } });
    if (msg.event === 'subscribe') this.subscribe(client);
    else client.subs.clear();
  }
}
