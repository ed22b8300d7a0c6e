/** The stream's message envelope and what a client may send: { op: ping } and { op: subscribe, channels }. */
import { STREAM_CHANNELS, type StreamChannel, type StreamClient } from './stream-client.js';
import type { WebSocket } from 'ws';

export interface StreamEnvelope {
  type: string;
  data?: unknown;
  ts: number;
}

export function streamMessage(type: string, data: unknown, ts: number): StreamEnvelope {
  return data === undefined ? { type, ts } : { type, data, ts };
}

const isChannel = (value: unknown): value is StreamChannel =>
  typeof value === 'string' && (STREAM_CHANNELS as readonly string[]).includes(value);

function reply(client: StreamClient, type: string, data: unknown, now: number): void {
  client.send(JSON.stringify(streamMessage(type, data, now)));
}

function refuse(client: StreamClient, code: string, message: string, now: number): void {
  reply(client, 'error', { code, message }, now);
}

/** Answers one client frame (null: a binary frame). Nothing a client sends closes its socket. */
export function handleClientMessage(client: StreamClient, text: string | null, now: number): void {
  let frame: unknown;
  try {
    frame = text === null ? undefined : JSON.parse(text);
  } catch {
    return refuse(
      client,
      'invalid_json',
      'frames are JSON text: {"op":"ping"} or {"op":"subscribe","channels":["positions","prices"]}',
      now,
    );
  }
  const op = frame !== null && typeof frame === 'object' ? (frame as { op?: unknown }).op : undefined;
  if (op === 'ping') return reply(client, 'pong', undefined, now);
  if (op === 'subscribe') {
    const channels = (frame as { channels?: unknown }).channels;
    if (!Array.isArray(channels) || !channels.every(isChannel)) {
      return refuse(client, 'invalid_param', `channels must be a list of ${STREAM_CHANNELS.join(', ')}`, now);
    }
    client.channels.clear();
    for (const channel of channels) client.channels.add(channel);
    return reply(client, 'subscribed', { channels: [...client.channels] }, now);
  }
  refuse(client, 'invalid_param', 'op must be ping or subscribe', now);
}

/** Sends one message on a raw socket (before or outside its StreamClient). */
export function sendMessage(ws: WebSocket, type: string, data: unknown, now: number): void {
  ws.send(JSON.stringify(streamMessage(type, data, now)));
}

/** Tells a socket why it is closed (an error message naming `reason`), then closes it with `code`. */
export function closeWithError(ws: WebSocket, now: number, code: number, reason: string, message: string): void {
  sendMessage(ws, 'error', { code: reason, message }, now);
  ws.close(code, reason);
}
