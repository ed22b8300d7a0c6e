/**
 * The liquidation side of the simulated exchange: the liquidation-only exchanges (Gate, BitMEX,
 * Deribit, HTX, Bitfinex, and Bitget's v3 socket) under /<exchange>, and random liquidations on all
 * nine formats while the sim is in random mode.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { ProviderRegistry } from '../control-plane.js';
import { createRng, type Rng } from '../prng.js';
import type { LiquidationEvent, LiquidationPublisher, RestReply, VenueDeps } from '../sim-types.js';
import { BitfinexLiquidations } from './bitfinex-liquidations.js';
import { BitgetLiquidations } from './bitget-liquidations.js';
import { BitmexLiquidations } from './bitmex-liquidations.js';
import { DeribitLiquidations } from './deribit-liquidations.js';
import { GateLiquidations } from './gate-liquidations.js';
import { HtxLiquidations } from './htx-liquidations.js';
import type { LiquidationVenue } from './liquidation-venue.js';

/** The nine liquidation formats, as the control plane names them. */
export const SIM_LIQUIDATION_EXCHANGES = ['binance', 'bybit', 'okx', 'bitget', 'gate', 'bitmex', 'deribit', 'htx', 'bitfinex'] as const;

const PATH = /^\/(gate|bitmex|deribit|htx|bitfinex|bitget)(\/.*)?$/;
/** Random mode: liquidations per second per exchange, on average, unless told otherwise. */
const RANDOM_RATE = 0.3;

export class SimLiquidations {
  private readonly venues = new Map<string, LiquidationVenue>();
  private readonly rng: Rng;
  private seq = 1_000_000;

  constructor(
    private readonly deps: VenueDeps,
    private readonly providers: ProviderRegistry,
    seed = 7,
    private readonly rate = RANDOM_RATE,
  ) {
    for (const venue of [
      new GateLiquidations(deps),
      new BitmexLiquidations(deps),
      new DeribitLiquidations(deps),
      new HtxLiquidations(deps),
      new BitfinexLiquidations(deps),
      new BitgetLiquidations(deps),
    ]) {
      this.venues.set(venue.exchange, venue);
    }
    this.rng = createRng(seed ^ 0x5eed);
  }

  /** The formats served here (Bitget's replaces the market venue's stub). */
  publishers(): LiquidationPublisher[] {
    return [...this.venues.values()];
  }

  private route(pathname: string): { venue: LiquidationVenue; sub: string } | undefined {
    const m = PATH.exec(pathname);
    const venue = m ? this.venues.get(m[1]) : undefined;
    return venue && m ? { venue, sub: m[2] ?? '/' } : undefined;
  }

  /** REST of the liquidation-only exchanges; undefined when the path is not theirs (Bitget REST stays with its venue). */
  handleRest(method: string, pathname: string, query: URLSearchParams, headers: IncomingMessage['headers']): RestReply | undefined {
    const found = this.route(pathname);
    if (!found || found.venue.exchange === 'bitget') return undefined;
    if (this.providers.isDown(found.venue.exchange)) return { status: 503, body: { message: 'Service Unavailable' } };
    return (
      found.venue.handleRest({ method, path: found.sub, query, headers }) ?? {
        status: 404,
        body: { message: `no such endpoint ${pathname}` },
      }
    );
  }

  /** Takes the upgrade when the path is one of these venues' sockets; false leaves it to the market venues. */
  handleUpgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    wss: WebSocketServer,
    reject: (status: number, text: string) => void,
  ): boolean {
    const url = new URL(req.url ?? '/', 'http://sim');
    const found = this.route(url.pathname);
    if (!found || !found.venue.acceptsWs(found.sub)) return false;
    if (this.providers.isDown(found.venue.exchange)) reject(503, 'Service Unavailable');
    else wss.handleUpgrade(req, socket, head, (ws) => found.venue.onConnection(ws, found.sub));
    return true;
  }

  /** In random mode, now and then a liquidation on each of the nine formats. */
  tick(publishers: ReadonlyMap<string, LiquidationPublisher>, tickMs: number): void {
    const { model, now } = this.deps;
    if (model.mode !== 'random' || model.symbols.length === 0) return;
    const chance = (this.rate * tickMs) / 1000;
    for (const exchange of SIM_LIQUIDATION_EXCHANGES) {
      if (this.rng.next() >= chance || this.providers.isDown(exchange)) continue;
      const publisher = publishers.get(exchange);
      if (publisher) publisher.publishLiquidation(this.randomEvent(exchange, now()));
    }
  }

  private randomEvent(exchange: string, ts: number): LiquidationEvent {
    const { model } = this.deps;
    // the larger coins liquidate more often: pick with a bias towards the head of the list
    const spec = model.symbols[Math.floor(Math.pow(this.rng.next(), 2.5) * model.symbols.length)];
    const side = this.rng.next() < 0.5 ? 'long' : 'short';
    const base = model.basePrice(spec.symbol);
    // a long is liquidated into a falling market, a short into a rising one
    const price = Number((base * (side === 'long' ? 0.999 : 1.001)).toFixed(spec.priceDp));
    const notional = Math.exp(Math.log(5_000) + 1.2 * this.rng.gauss());
    const qty = Number((notional / price).toFixed(Math.max(spec.qtyDp, 3)));
    return { id: ++this.seq, exchange, symbol: spec.symbol, side, price, qty: qty > 0 ? qty : 1, ts };
  }

  /** Drops the sockets of one exchange (undefined when it is not one of these) or of all. */
  drop(exchange?: string): number | undefined {
    if (exchange === undefined) return [...this.venues.values()].reduce((n, v) => n + v.dropAll(), 0);
    return this.venues.get(exchange)?.dropAll();
  }

  connections(): Record<string, number> {
    return Object.fromEntries([...this.venues].map(([name, v]) => [name === 'bitget' ? 'bitget-v3' : name, v.connectionCount()]));
  }
}
