/** Bookkeeping of one venue's sockets and their subscriptions. */
import { randomUUID } from 'node:crypto';
import { WebSocket, type RawData } from 'ws';

/** A client that stopped reading gets frames skipped rather than unbounded buffering. */
const MAX_BUFFERED = 8 * 1024 * 1024;

export interface HubClient {
  readonly ws: WebSocket;
  readonly connId: string;
  readonly path: string;
  readonly subs: Set<string>;
  /** Per-venue, per-topic memory (e.g. the last ticker sent, to compute Bybit deltas). */
  readonly state: Map<string, unknown>;
}

export class WsHub {
  private readonly clients = new Set<HubClient>();

  add(ws: WebSocket, path: string, onText: (client: HubClient, text: string) => void): HubClient {
    const client: HubClient = { ws, connId: randomUUID(), path, subs: new Set(), state: new Map() };
    this.clients.add(client);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return;
      onText(client, rawToString(data));
    });
    ws.on('close', () => this.clients.delete(client));
    ws.on('error', () => this.clients.delete(client));
    return client;
  }

  get size(): number {
    return this.clients.size;
  }

  all(): IterableIterator<HubClient> {
    return this.clients.values();
  }

  /** Every topic at least one client is subscribed to. */
  activeTopics(): Set<string> {
    const topics = new Set<string>();
    for (const c of this.clients) for (const t of c.subs) topics.add(t);
    return topics;
  }

  subscribers(topic: string): HubClient[] {
    const out: HubClient[] = [];
    for (const c of this.clients) if (c.subs.has(topic)) out.push(c);
    return out;
  }

  send(client: HubClient, payload: string | object): void {
    const { ws } = client;
    if (ws.readyState !== WebSocket.OPEN || ws.bufferedAmount > MAX_BUFFERED) return;
    ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  /** Sends the same frame to every subscriber of a topic, serialising it once. */
  publish(topic: string, payload: object): number {
    const subs = this.subscribers(topic);
    if (subs.length === 0) return 0;
    const text = JSON.stringify(payload);
    for (const c of subs) this.send(c, text);
    return subs.length;
  }

  /** Abrupt close (no close frame), like a dropped TCP connection. */
  terminateAll(): number {
    const n = this.clients.size;
    for (const c of this.clients) c.ws.terminate();
    this.clients.clear();
    return n;
  }
}

export function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** JSON.parse that never throws; undefined on bad JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shared REST query helpers: integer params that may be absent. */
export function intParam(query: URLSearchParams, name: string): number | undefined | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? Math.floor(n) : null;
}
