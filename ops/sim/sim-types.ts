/** Contracts between the server, the control plane and the venue modules. */
import type { PastDays } from './past-days.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { WebSocket } from 'ws';
import type { Candle, MarketModel, VenueId } from './market-model.js';

export interface RestReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RestRequest {
  method: string;
  /** Path below the venue prefix, e.g. /fapi/v1/klines. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export type LiquidationSide = 'long' | 'short';

export interface LiquidationEvent {
  readonly id: number;
  readonly exchange: string;
  readonly symbol: string;
  /** Side of the position that was liquidated. */
  readonly side: LiquidationSide;
  readonly price: number;
  readonly qty: number;
  readonly ts: number;
}

/** One exchange's liquidation wire format. Add a module implementing this to support a new exchange. */
export interface LiquidationPublisher {
  readonly exchange: string;
  /** Pushes the event to subscribed sockets; returns how many frames were sent. */
  publishLiquidation(ev: LiquidationEvent): number;
}

export interface VenueDeps {
  readonly model: MarketModel;
  readonly now: () => number;
  /** Past days of 1-minute candles, before the minutes the model holds (replays read them); Binance serves them. */
  readonly pastDays?: PastDays;
}

export interface Venue extends LiquidationPublisher {
  readonly id: VenueId;
  /** undefined: no such endpoint (the server answers 404). */
  handleRest(req: RestRequest): RestReply | undefined;
  /** Whether a WebSocket upgrade on this path (below the prefix) belongs to this venue. */
  acceptsWs(path: string): boolean;
  onConnection(ws: WebSocket, path: string, query: URLSearchParams): void;
  /** Periodic push of every subscribed ticker and kline stream. */
  pushTick(): void;
  /** Immediate push for one symbol after a control-plane change. */
  pushSymbol(symbol: string): void;
  /** A base candle that is now closed (minute end, or a past minute rewritten). */
  pushClosedCandle(symbol: string, candle: Candle): void;
  /** Terminates every socket abruptly; returns how many. */
  dropAll(): number;
  connectionCount(): number;
}
