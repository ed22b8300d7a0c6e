/** How a delivery is signed and the headers it carries. Pure. */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-PD-Signature';
export const SIGNATURE_SCHEME = 'sha256= followed by the hex HMAC-SHA256 of the raw request body, keyed with the webhook secret';
/** The signature that covers the send time too, so a receiver can refuse a replayed delivery. */
export const SIGNATURE_V2_HEADER = 'X-PD-Signature-V2';
export const SIGNATURE_V2_SCHEME =
  't=<X-PD-Timestamp>,v1=<hex HMAC-SHA256 of "<t>.<raw request body>", keyed with the webhook secret>; ' +
  'refuse a delivery whose t (ms) is far from your clock (the TypeScript client allows 5 minutes)';

/** sha256=<hex HMAC-SHA256 of the raw body keyed with the secret>. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret>. */
export function signTimestamped(body: string, timestamp: number, secret: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface DeliveryHeaderInput {
  event: string;
  deliveryId: string;
  /** Send time of this attempt, ms. */
  timestamp: number;
  body: string;
  secret: string;
}

/** The headers of one delivery attempt: event, delivery id (the same on every retry), time, the two signatures. */
export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'perpdesk-webhooks',
    'x-pd-event': input.event,
    'x-pd-delivery': input.deliveryId,
    'x-pd-timestamp': String(input.timestamp),
    [SIGNATURE_HEADER.toLowerCase()]: signBody(input.body, input.secret),
    [SIGNATURE_V2_HEADER.toLowerCase()]: signTimestamped(input.body, input.timestamp, input.secret),
  };
}
