/**
 * One exchange WebSocket that stays up: reconnects with capped exponential backoff and jitter,
 * resubscribes its topics after every reconnect, sends the venue's keep-alive ping, and treats a
 * connection that received nothing (data, acks or pongs) for `silenceMs` as dead.
 */
import { WebSocket, type RawData } from 'ws';
import type { Logger } from '../../shared/core/logger.js';
import { backoffDelay } from '../../shared/core/backoff.js';

export interface SocketProtocol {
  /** Messages that subscribe these topics (already split to the venue's batch size). */
  subscribe(topics: string[]): string[];
  unsubscribe(topics: string[]): string[];
  /** Keep-alive: app-level text ('ping', '{"op":"ping"}') or WebSocket protocol pings. */
  ping: { kind: 'text'; text: string } | { kind: 'protocol' };
  /** Venue pong replies, which keep the connection alive but carry no data. */
  isPong(text: string): boolean;
  /** A frame the venue wants answered (HTX's server ping): the reply to send, or undefined for a data frame. */
  answer?(text: string): string | undefined;
}

export interface ReconnectingSocketOptions {
  /** For logs, e.g. bybit#2. */
  name: string;
  url: string;
  logger: Logger;
  protocol: SocketProtocol;
  silenceMs: number;
  pingIntervalMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** Gap between outbound messages (venues limit messages per second). */
  sendGapMs: number;
  /** Turns a binary frame into text (HTX sends gzip); without it binary frames are read as UTF-8. */
  decodeBinary?(data: Buffer): string;
  onText(text: string): void;
  onConnect?(): void;
  onDisconnect?(reason: string): void;
}

function rawBuffer(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

export class ReconnectingSocket {
  private ws: WebSocket | undefined;
  private running = false;
  private attempt = 0;
  private lastActivity = 0;
  private lastError: string | undefined;
  private readonly topics = new Set<string>();
  private outbox: string[] = [];
  private reconnectTimer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private sender: NodeJS.Timeout | undefined;
  /** Connections opened so far; tests and logs read it. */
  connects = 0;

  constructor(private readonly options: ReconnectingSocketOptions) {}

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  get topicCount(): number {
    return this.topics.size;
  }

  /** Connects now, or after `delayMs` (venues limit how many connections an address may open per second). */
  start(delayMs = 0): void {
    if (this.running) return;
    this.running = true;
    if (delayMs > 0) this.reconnectTimer = setTimeout(() => this.connect(), delayMs);
    else this.connect();
  }

  /** The topics this socket should carry; the difference is (un)subscribed now or on the next connect. */
  setTopics(wanted: Iterable<string>): void {
    const next = new Set(wanted);
    const added = [...next].filter((t) => !this.topics.has(t));
    const removed = [...this.topics].filter((t) => !next.has(t));
    for (const t of removed) this.topics.delete(t);
    for (const t of added) this.topics.add(t);
    if (!this.connected) return;
    if (removed.length > 0) this.enqueue(this.options.protocol.unsubscribe(removed));
    if (added.length > 0) this.enqueue(this.options.protocol.subscribe(added));
  }

  private connect(): void {
    if (!this.running) return;
    const { url, logger, name } = this.options;
    this.lastError = undefined;
    const ws = new WebSocket(url, { handshakeTimeout: 10_000, perMessageDeflate: false });
    this.ws = ws;
    ws.on('open', () => {
      this.connects++;
      this.lastActivity = Date.now();
      logger.info({ stream: name, url, topics: this.topics.size }, 'stream connected');
      this.outbox = [];
      if (this.topics.size > 0) this.enqueue(this.options.protocol.subscribe([...this.topics]));
      this.startTimers(ws);
      this.options.onConnect?.();
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      this.lastActivity = Date.now();
      this.attempt = 0;
      let text: string;
      try {
        text = isBinary && this.options.decodeBinary ? this.options.decodeBinary(rawBuffer(data)) : rawText(data);
      } catch (error) {
        logger.warn({ err: error, stream: name }, 'binary frame not decoded');
        return;
      }
      if (this.options.protocol.isPong(text)) return;
      const reply = this.options.protocol.answer?.(text);
      if (reply !== undefined) {
        if (ws.readyState === WebSocket.OPEN) ws.send(reply);
        return;
      }
      try {
        this.options.onText(text);
      } catch (error) {
        // a frame must never take the process down
        logger.error({ err: error, stream: name }, 'frame handler failed');
      }
    });
    ws.on('pong', () => {
      this.lastActivity = Date.now();
    });
    ws.on('error', (error: Error) => {
      this.lastError = error.message;
    });
    ws.on('close', (code: number, reason: Buffer) => {
      this.stopTimers();
      if (this.ws === ws) this.ws = undefined;
      const why = reason.toString() || this.lastError || 'connection closed';
      const text = `${code} ${why}`;
      this.options.onDisconnect?.(text);
      if (!this.running) return;
      const delay = backoffDelay(this.attempt++, this.options.reconnectMinMs, this.options.reconnectMaxMs);
      logger.warn({ stream: name, code, reason: why, retryInMs: delay }, 'stream disconnected');
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private startTimers(ws: WebSocket): void {
    const { silenceMs, pingIntervalMs, protocol, logger, name } = this.options;
    this.watchdog = setInterval(
      () => {
        if (ws.readyState !== WebSocket.OPEN || Date.now() - this.lastActivity <= silenceMs) return;
        logger.warn({ stream: name, silentForMs: Date.now() - this.lastActivity }, 'stream silent: reconnecting');
        this.lastError = `silent for more than ${silenceMs} ms`;
        ws.terminate();
      },
      Math.max(50, Math.min(1_000, Math.floor(silenceMs / 4))),
    );
    this.pinger = setInterval(() => {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (protocol.ping.kind === 'text') ws.send(protocol.ping.text);
      else ws.ping();
    }, pingIntervalMs);
  }

  private stopTimers(): void {
    clearInterval(this.watchdog);
    clearInterval(this.pinger);
    clearTimeout(this.sender);
    this.watchdog = this.pinger = this.sender = undefined;
    this.outbox = [];
  }

  private enqueue(messages: string[]): void {
    this.outbox.push(...messages);
    if (!this.sender) this.drain();
  }

  private drain(): void {
    this.sender = undefined;
    const ws = this.ws;
    const next = this.outbox.shift();
    if (next === undefined || !ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(next);
    if (this.outbox.length > 0) this.sender = setTimeout(() => this.drain(), this.options.sendGapMs);
  }

  /** Closes the socket and stops reconnecting; resolves when it is closed. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.reconnectTimer);
    this.stopTimers();
    const ws = this.ws;
    this.ws = undefined;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2_000);
      ws.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close(1000, 'stopping');
    });
  }
}
