/** How a delivery is signed and the headers it carries. Pure. */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-PD-Signature';
export const SIGNATURE_SCHEME = 'sha256= followed by the hex HMAC-SHA256 of the raw request body, keyed with the webhook secret';

/** sha256=<hex HMAC-SHA256 of the raw body keyed with the secret>. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface DeliveryHeaderInput {
  event: string;
  deliveryId: string;
  /** Send time of this attempt, ms. */
  timestamp: number;
  body: string;
  secret: string;
}

/** The headers of one delivery attempt: event, delivery id (the same on every retry), time, signature. */
export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'perpdesk-webhooks',
    'x-pd-event': input.event,
    'x-pd-delivery': input.deliveryId,
    'x-pd-timestamp': String(input.timestamp),
    [SIGNATURE_HEADER.toLowerCase()]: signBody(input.body, input.secret),
  };
}
