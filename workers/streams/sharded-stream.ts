/** A venue endpoint carried over as many reconnecting sockets as its per-connection limits need. */
import type { Logger } from '../../shared/core/logger.js';
import { assignShards } from './assign-shards.js';
import { ReconnectingSocket, type SocketProtocol } from './reconnecting-socket.js';

export interface ShardedStreamOptions {
  /** For logs: okx-public, bybit, ... */
  name: string;
  url: string;
  logger: Logger;
  protocol: SocketProtocol;
  symbolsPerShard: number;
  topicsFor(symbol: string): string[];
  /** Topics carried by the first connection whatever the symbols (e.g. Binance !ticker@arr). */
  fixedTopics?: string[];
  silenceMs: number;
  pingIntervalMs: number;
  reconnectMaxMs: number;
  sendGapMs: number;
  /** See ReconnectingSocketOptions.decodeBinary. */
  decodeBinary?(data: Buffer): string;
  onText(text: string): void;
}

const RECONNECT_MIN_MS = 250;
/** OKX allows 3 new connections per second per address; others are laxer. */
const CONNECT_STAGGER_MS = 400;

export class ShardedStream {
  private shards: string[][] = [];
  private sockets: ReconnectingSocket[] = [];
  private running = false;

  constructor(private readonly options: ShardedStreamOptions) {}

  /** Sockets currently open. */
  get openSockets(): number {
    return this.sockets.filter((s) => s.connected).length;
  }

  get socketCount(): number {
    return this.sockets.length;
  }

  /** Total connections made so far, reconnects included. */
  get connects(): number {
    return this.sockets.reduce((sum, s) => sum + s.connects, 0);
  }

  start(symbols: readonly string[]): void {
    this.running = true;
    this.setSymbols(symbols);
  }

  setSymbols(symbols: readonly string[]): void {
    if (!this.running) return;
    const o = this.options;
    const minShards = o.fixedTopics && o.fixedTopics.length > 0 ? 1 : 0;
    this.shards = assignShards(this.shards, symbols, o.symbolsPerShard, minShards);
    while (this.sockets.length > this.shards.length) void this.sockets.pop()?.stop();
    this.shards.forEach((shard, i) => {
      let socket = this.sockets[i];
      if (!socket) {
        socket = new ReconnectingSocket({
          name: `${o.name}#${i}`,
          url: o.url,
          logger: o.logger,
          protocol: o.protocol,
          silenceMs: o.silenceMs,
          pingIntervalMs: o.pingIntervalMs,
          reconnectMinMs: RECONNECT_MIN_MS,
          reconnectMaxMs: o.reconnectMaxMs,
          sendGapMs: o.sendGapMs,
          decodeBinary: o.decodeBinary,
          onText: o.onText,
        });
        this.sockets[i] = socket;
      }
      const topics = shard.flatMap((s) => o.topicsFor(s));
      socket.setTopics(i === 0 && o.fixedTopics ? [...o.fixedTopics, ...topics] : topics);
      // new sockets open one after the other, not all in the same instant
      socket.start(i * CONNECT_STAGGER_MS);
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    const sockets = this.sockets;
    this.sockets = [];
    this.shards = [];
    await Promise.all(sockets.map((s) => s.stop()));
  }
}
