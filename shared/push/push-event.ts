/**
 * What an account outbox entry becomes on its way out: webhook events (the spec's names and
 * payloads) and the stream's position messages. Pure: no Redis, no clock.
 */
import { orderView, type Order } from '../paper/orders/order-types.js';
import type { Position } from '../paper/positions/position-types.js';
import { closedView } from '../paper/positions/position-view.js';
import type { WebhookDeliveryBody } from './webhook-schema.js';

/** Every event a webhook can subscribe to; omitting events subscribes to all. */
export const WEBHOOK_EVENTS = [
  'position.opened',
  'position.updated',
  'position.closed',
  'position.liquidated',
  'order.filled',
  'order.expired',
  'order.cancelled',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/**
 * Events the account's channel carries and webhooks never do (the spec names no such event): a resting order placed
 * (order-place.lua), which the Binance user-data stream sends as NEW.
 */
export const CHANNEL_EVENTS = ['order.placed'] as const;

export type ChannelEvent = (typeof CHANNEL_EVENTS)[number];

const isChannelEvent = (value: unknown): value is ChannelEvent =>
  typeof value === 'string' && (CHANNEL_EVENTS as readonly string[]).includes(value);

/** The stream's position events: a liquidation is a close there (the position says liquidated). */
export type StreamPositionEvent = 'opened' | 'updated' | 'closed';

/** One outbox entry as read from the stream. */
export interface OutboxEntry {
  id: string;
  fields: Record<string, string>;
}

/** One thing that happened, as clients see it. */
export interface PushItem {
  /** The outbox entry id, with .1 for the second item of the same entry (a partial close's remaining part). */
  itemId: string;
  event: WebhookEvent;
  data: Record<string, unknown>;
  /** The stream's view of it, when a position the stream shows changed. */
  stream?: { event: StreamPositionEvent; position: Record<string, unknown> };
}

export interface RelayEntry {
  id: string;
  book: string;
  ts: number;
  items: PushItem[];
  /** The entry's channel-only order event (CHANNEL_EVENTS), when it is one: on the channel, never to webhooks. */
  channel?: ChannelOrder;
  /** The request (or job) that caused it (the entry's 'req'); absent on entries written without one or by an older release. */
  reqId?: string;
}

/** A stream message: { type, data, ts }. */
export interface StreamMessage {
  type: string;
  data: unknown;
  ts: number;
}

/** An order event of an entry as the account's channel carries it: the order as /orders shows it (a fill's with its position). */
export interface ChannelOrder {
  event: Extract<WebhookEvent, `order.${string}`> | ChannelEvent;
  order: Record<string, unknown>;
}

/** What the relay publishes on an account's channel for each entry, in outbox order. */
export interface ChannelMessage {
  id: string;
  book: string;
  messages: StreamMessage[];
  /** The entry's order events, absent when none: the stream does not show them, the Binance user-data stream does. */
  orders?: ChannelOrder[];
}

const STREAM_EVENT: Partial<Record<WebhookEvent, StreamPositionEvent>> = {
  'position.opened': 'opened',
  'position.updated': 'updated',
  'position.closed': 'closed',
  'position.liquidated': 'closed',
};

function parseObject(raw: string | undefined): Record<string, unknown> | null {
  if (raw === undefined) return null;
  const value: unknown = JSON.parse(raw);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The public fields of a stored position (the internal ones stripped), as the routes show it. */
function positionData(raw: string | undefined): Record<string, unknown> | null {
  const parsed = parseObject(raw);
  return parsed === null ? null : (closedView(parsed as unknown as Position) as unknown as Record<string, unknown>);
}

function positionItems(entry: OutboxEntry, event: WebhookEvent): PushItem[] {
  const position = positionData(entry.fields.position);
  if (position === null) throw new Error(`outbox entry ${entry.id} (${event}) carries no position`);
  const streamEvent = STREAM_EVENT[event];
  const items: PushItem[] = [
    { itemId: entry.id, event, data: position, ...(streamEvent ? { stream: { event: streamEvent, position } } : {}) },
  ];
  // a partial close keeps the position open with a smaller quantity: that is an update of it
  const remaining = positionData(entry.fields.remaining);
  if (remaining !== null)
    items.push({ itemId: `${entry.id}.1`, event: 'position.updated', data: remaining, stream: { event: 'updated', position: remaining } });
  return items;
}

/** The order an order event carries, as /orders shows it. */
function orderData(entry: OutboxEntry, event: string): Record<string, unknown> {
  const parsed = parseObject(entry.fields.order);
  if (parsed === null) throw new Error(`outbox entry ${entry.id} (${event}) carries no order`);
  return orderView(parsed as unknown as Order) as unknown as Record<string, unknown>;
}

function orderItems(entry: OutboxEntry, event: WebhookEvent): PushItem[] {
  const order = orderData(entry, event);
  // order.filled carries the position it created (the fill writes that position's own position.opened too,
  // which is what the stream shows)
  const position = positionData(entry.fields.position);
  return [{ itemId: entry.id, event, data: position === null ? order : { ...order, position } }];
}

/**
 * The items of one outbox entry. Entries no client subscribes to (book.reset) and channel-only ones give none. A
 * malformed entry throws: the relay logs it and moves on, rather than blocking the account's outbox.
 */
export function mapOutboxEntry(entry: OutboxEntry): RelayEntry {
  const event = entry.fields.event;
  const req = entry.fields.req;
  const base = {
    id: entry.id,
    book: entry.fields.book || 'main',
    ts: Number(entry.fields.ts) || Number(entry.id.split('-')[0]),
    ...(req ? { reqId: req } : {}),
  };
  if (isChannelEvent(event)) return { ...base, items: [], channel: { event, order: orderData(entry, event) } };
  if (!isWebhookEvent(event)) return { ...base, items: [] };
  const items = event.startsWith('order.') ? orderItems(entry, event) : positionItems(entry, event);
  return { ...base, items };
}

const isOrderEvent = (event: WebhookEvent): event is Extract<WebhookEvent, `order.${string}`> => event.startsWith('order.');

/** The channel message of an entry: its stream messages (position events only) and its order events, ready to fan out. */
export function channelMessage(entry: RelayEntry): ChannelMessage {
  const messages = entry.items.flatMap((item): StreamMessage[] =>
    item.stream ? [{ type: 'position', data: item.stream, ts: entry.ts }] : [],
  );
  const orders = entry.items.flatMap((item): ChannelOrder[] => (isOrderEvent(item.event) ? [{ event: item.event, order: item.data }] : []));
  if (entry.channel) orders.push(entry.channel);
  return { id: entry.id, book: entry.book, messages, ...(orders.length > 0 ? { orders } : {}) };
}

/** Whether a channel message carries anything for a socket: entries with nothing to show are not published. */
export const carriesEvents = (message: ChannelMessage): boolean => message.messages.length > 0 || message.orders !== undefined;

/** The JSON body of a webhook delivery: { event, ts, hook_id, data }, plus account (the book) for a book's events. */
export function webhookBody(entry: RelayEntry, item: PushItem, hookId: string): string {
  const body: WebhookDeliveryBody = {
    event: item.event,
    ts: entry.ts,
    hook_id: hookId,
    data: item.data,
    ...(entry.book !== 'main' ? { account: entry.book } : {}),
  };
  return JSON.stringify(body);
}

/** Orders stream ids (ms-seq): negative when a comes first. */
export function compareStreamIds(a: string, b: string): number {
  const [aMs, aSeq] = a.split('-').map(Number);
  const [bMs, bSeq] = b.split('-').map(Number);
  return aMs !== bMs ? aMs - bMs : (aSeq ?? 0) - (bSeq ?? 0);
}
