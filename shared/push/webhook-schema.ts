/** The JSON schemas of a webhook as listed, of a test delivery's outcome (in act test's answer), and of the body each delivery POSTs. */
import { arrayOf, boolean, epochMs, integer, nullable, number, objectSchema, oneOfValues, ref, string } from '../core/json-schema.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from './push-event.js';
import type { WebhookStats } from './webhook-store.js';

/** A hook as GET lists it (its counters, never its secret), or as add answers it once (with its secret, without counters). */
export interface WebhookView extends Partial<WebhookStats> {
  id: string;
  url: string;
  events: WebhookEvent[];
  active: boolean;
  /** The book, for a hook a book-bound key added. */
  account?: string;
  created?: number;
  /** Only in add's answer: the HMAC key of X-PD-Signature. */
  secret?: string;
}

/** What act test answers: the receiver's outcome of one ping. */
export interface WebhookTestView {
  ok: true;
  delivered: boolean;
  status: number | null;
  ms: number;
  error: string | null;
}

/** The JSON body of a delivery: { event, ts, hook_id, data }, plus account (the book) for a book's events. */
export interface WebhookDeliveryBody {
  event: WebhookEvent | 'ping';
  ts: number;
  hook_id: string;
  data: Record<string, unknown>;
  account?: string;
}

export const webhookSchema = objectSchema<WebhookView>(
  'A webhook: where events are POSTed, signed with its secret.',
  {
    id: string('Webhook id (starts with wh)'),
    url: string('The https address events are POSTed to'),
    events: arrayOf(oneOfValues(WEBHOOK_EVENTS)),
    active: boolean('False once its failures disabled it'),
    account: string('The book, for a hook a book-bound key added'),
    created: epochMs(),
    secret: string('Only when added: the HMAC-SHA256 key of the signature header'),
    deliveries: integer('Deliveries attempted'),
    failures: integer('Deliveries that failed'),
    consecutive_failures: integer(),
    last_error: nullable(string()),
    last_status: nullable(integer('HTTP status of the last attempt')),
    last_attempt_ts: nullable(epochMs()),
    last_success_ts: nullable(epochMs()),
  },
  {
    account: true,
    created: true,
    secret: true,
    deliveries: true,
    failures: true,
    consecutive_failures: true,
    last_error: true,
    last_status: true,
    last_attempt_ts: true,
    last_success_ts: true,
  },
);

export const webhookTestSchema = objectSchema<Omit<WebhookTestView, 'ok'>>(
  "A test delivery: a ping sent now, and what the hook's receiver answered.",
  {
    delivered: boolean('The receiver answered 2xx'),
    status: nullable(integer('HTTP status, null when none came back')),
    ms: number('Round trip, milliseconds'),
    error: nullable(string()),
  },
  {},
);

export const webhookDeliverySchema = objectSchema<WebhookDeliveryBody>(
  'The JSON body POSTed to a webhook for each event.',
  {
    event: oneOfValues([...WEBHOOK_EVENTS, 'ping']),
    ts: epochMs('When it happened'),
    hook_id: string(),
    data: {
      anyOf: [ref('Position'), ref('Order'), { type: 'object' }],
      description: 'position.*: the position; order.*: the order (order.filled adds the position it opened); ping: { message }',
    },
    account: string("The book, for a book's events"),
  },
  { account: true },
);
