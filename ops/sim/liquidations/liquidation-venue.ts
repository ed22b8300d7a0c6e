/**
 * What a simulated liquidation-only exchange provides (one module per exchange), and the base they
 * share: a socket hub, one all-market liquidation topic, and the replay of the last minute of frames
 * to every new subscription (as BitMEX's `partial` does), which makes the collector's dedup work.
 */
import type { WebSocket } from 'ws';
import type { LiquidationEvent, LiquidationPublisher, RestReply, RestRequest, VenueDeps } from '../sim-types.js';
import { WsHub, type HubClient } from '../ws-hub.js';

export interface LiquidationVenue extends LiquidationPublisher {
  /** Whether a WebSocket upgrade on this path (below /<exchange>) belongs to this venue. */
  acceptsWs(path: string): boolean;
  onConnection(ws: WebSocket, path: string): void;
  /** REST below /<exchange> (contract lists); undefined: no such endpoint. */
  handleRest(req: RestRequest): RestReply | undefined;
  dropAll(): number;
  connectionCount(): number;
}

/** Frames younger than this are replayed to a new subscription. */
export const REPLAY_MS = 60_000;
const REPLAY_MAX = 100;
/** The one topic id of an all-market liquidation channel. */
export const LIQ_TOPIC = 'liquidations';

export abstract class LiquidationVenueBase implements LiquidationVenue {
  abstract readonly exchange: string;
  protected readonly hub = new WsHub();
  private readonly recent: { ts: number; frames: string[] }[] = [];

  constructor(protected readonly deps: VenueDeps) {}

  abstract acceptsWs(path: string): boolean;
  /** The frames (serialized) that announce one liquidation; [] when the symbol is not listed here. */
  protected abstract frames(ev: LiquidationEvent): string[];
  protected abstract onText(client: HubClient, text: string): void;

  /** Sent right after the connection opens (a welcome or info message). */
  protected welcome(_client: HubClient): void {}

  onConnection(ws: WebSocket, path: string): void {
    const client = this.hub.add(ws, path, (c, text) => this.onText(c, text));
    this.welcome(client);
  }

  handleRest(_req: RestRequest): RestReply | undefined {
    return undefined;
  }

  publishLiquidation(ev: LiquidationEvent): number {
    const frames = this.frames(ev);
    if (frames.length === 0) return 0;
    this.recent.push({ ts: this.deps.now(), frames });
    if (this.recent.length > REPLAY_MAX) this.recent.shift();
    let sent = 0;
    for (const client of this.hub.subscribers(LIQ_TOPIC)) {
      for (const frame of frames) this.deliver(client, frame);
      sent += frames.length;
    }
    return sent;
  }

  /** Subscribes the client and replays the last minute of frames to it. */
  protected subscribe(client: HubClient): void {
    client.subs.add(LIQ_TOPIC);
    const since = this.deps.now() - REPLAY_MS;
    for (const entry of this.recent) if (entry.ts >= since) for (const frame of entry.frames) this.deliver(client, frame);
  }

  /** How a frame goes on the wire (HTX overrides: gzip). */
  protected deliver(client: HubClient, frame: string): void {
    this.hub.send(client, frame);
  }

  dropAll(): number {
    return this.hub.terminateAll();
  }

  connectionCount(): number {
    return this.hub.size;
  }
}

/** Rounds away binary noise (0.5 / 0.0001 = 4999.999...) so a size prints as the exchange would. */
export function clean(value: number, dp = 8): number {
  return Number(value.toFixed(dp));
}
