/**
 * BitMEX realtime (`/bitmex/realtime`): the `liquidation` table (partial on subscribe, then insert and
 * delete per order; side = the order's side) and `/bitmex/api/v1/instrument/active`. BTC trades as
 * the inverse XBTUSD (1 USD per contract), every other coin as a linear <COIN>USDT of 1e-6 coin.
 */
import { randomUUID } from 'node:crypto';
import type { LiquidationEvent, RestReply, RestRequest } from '../sim-types.js';
import type { SymbolSpec } from '../symbols.js';
import { isRecord, parseJson, type HubClient } from '../ws-hub.js';
import { clean, LIQ_TOPIC, LiquidationVenueBase, REPLAY_MS } from './liquidation-venue.js';

const TABLE = 'liquidation';
const POSITION_MULTIPLIER = 1_000_000;

interface Resting {
  ts: number;
  row: Record<string, unknown>;
}

const contractOf = (spec: SymbolSpec): string => (spec.base === 'BTC' ? 'XBTUSD' : `${spec.base}USDT`);

export class BitmexLiquidations extends LiquidationVenueBase {
  readonly exchange = 'bitmex';
  /** Orders "resting" in the last minute: the partial a new subscription gets. */
  private resting: Resting[] = [];

  acceptsWs(path: string): boolean {
    return path === '/realtime';
  }

  override handleRest(req: RestRequest): RestReply | undefined {
    if (req.method !== 'GET' || req.path !== '/api/v1/instrument/active') return undefined;
    const { model } = this.deps;
    const body = model.symbols.map((spec) => {
      const inverse = spec.base === 'BTC';
      const price = model.basePrice(spec.symbol);
      return {
        symbol: contractOf(spec),
        rootSymbol: inverse ? 'XBT' : spec.base,
        state: 'Open',
        typ: 'FFWCSX',
        underlying: inverse ? 'XBT' : spec.base,
        quoteCurrency: inverse ? 'USD' : 'USDT',
        isQuanto: false,
        isInverse: inverse,
        multiplier: inverse ? -100_000_000 : 1,
        underlyingToPositionMultiplier: inverse ? null : POSITION_MULTIPLIER,
        lastPrice: price,
        markPrice: price,
      };
    });
    return { status: 200, body };
  }

  protected frames(ev: LiquidationEvent): string[] {
    const spec = this.deps.model.spec(ev.symbol);
    if (!spec) return [];
    const inverse = spec.base === 'BTC';
    const leavesQty = inverse ? clean(ev.qty * ev.price, 4) : clean(ev.qty * POSITION_MULTIPLIER, 4);
    const row = { orderID: randomUUID(), symbol: contractOf(spec), side: ev.side === 'long' ? 'Sell' : 'Buy', price: ev.price, leavesQty };
    const now = this.deps.now();
    this.resting = this.resting.filter((r) => r.ts >= now - REPLAY_MS);
    this.resting.push({ ts: now, row });
    return [
      JSON.stringify({ table: TABLE, action: 'insert', data: [row] }),
      JSON.stringify({ table: TABLE, action: 'delete', data: [{ orderID: row.orderID, symbol: row.symbol }] }),
    ];
  }

  protected override welcome(client: HubClient): void {
    const now = this.deps.now();
    this.hub.send(client, {
      info: 'Welcome to the BitMEX Realtime API.',
      version: 'sim',
      timestamp: new Date(now).toISOString(),
      docs: 'https://www.bitmex.com/app/wsAPI',
      limit: { remaining: 720 },
    });
  }

  protected onText(client: HubClient, text: string): void {
    if (text === 'ping') {
      this.hub.send(client, 'pong');
      return;
    }
    const msg = parseJson(text);
    const args = isRecord(msg) && Array.isArray(msg.args) ? msg.args : [];
    if (!isRecord(msg) || (msg.op !== 'subscribe' && msg.op !== 'unsubscribe')) {
      this.hub.send(client, { status: 400, error: 'Unknown or unsupported operation', request: msg ?? text });
      return;
    }
    for (const arg of args) {
      if (arg !== TABLE) {
        this.hub.send(client, { success: false, status: 400, error: `Unknown table: ${String(arg)}`, request: msg });
        continue;
      }
      this.hub.send(client, { success: true, [msg.op]: TABLE, request: msg });
      if (msg.op === 'unsubscribe') {
        client.subs.clear();
        continue;
      }
      // BitMEX answers a subscription with the orders resting now
      const since = this.deps.now() - REPLAY_MS;
      const data = this.resting.filter((r) => r.ts >= since).map((r) => r.row);
      this.hub.send(client, {
        table: TABLE,
        action: 'partial',
        keys: ['orderID'],
        types: { orderID: 'guid', symbol: 'symbol', side: 'symbol', price: 'float', leavesQty: 'long' },
        filter: {},
        data,
      });
      client.subs.add(LIQ_TOPIC);
    }
  }
}
