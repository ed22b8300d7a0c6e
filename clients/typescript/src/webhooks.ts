/**
 * Checks a webhook delivery on the receiving side: X-PD-Signature-V2 (t=<X-PD-Timestamp>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">) under the hook's secret, and a t close to the receiver's clock, so a captured delivery sent again
 * later is refused. Web Crypto only: it runs in Node 20 and in browsers alike.
 */

export const SIGNATURE_V2_HEADER = 'x-pd-signature-v2';
/** How far a delivery's send time may be from the receiver's clock by default: 5 minutes. */
export const DEFAULT_TOLERANCE_MS = 5 * 60_000;

export interface WebhookDeliveryInput {
  /** The request body exactly as received (not parsed and serialized again). */
  rawBody: string;
  /** The request headers (any case): a Headers object or a plain record as Node's http gives it. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The secret the hook was created with (whs_...). */
  secret: string;
  /** Allowed distance between the delivery's t and now, ms; default DEFAULT_TOLERANCE_MS. */
  toleranceMs?: number;
  /** The receiver's clock, ms; default Date.now(). */
  now?: number;
}

export type WebhookVerdict =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'missing_signature' | 'malformed_signature' | 'bad_signature' | 'stale_timestamp' };

function headerValue(headers: WebhookDeliveryInput['headers'], name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

async function hmacHex(secret: string, text: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Equal strings, compared in a time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/** Whether a delivery is signed with `secret` and was sent within the tolerance of now. */
export async function verifyWebhook(input: WebhookDeliveryInput): Promise<WebhookVerdict> {
  const header = headerValue(input.headers, SIGNATURE_V2_HEADER);
  if (header === undefined) return { ok: false, reason: 'missing_signature' };
  const match = /^t=(\d{1,16}),v1=([0-9a-f]{64})$/.exec(header.trim());
  if (!match) return { ok: false, reason: 'malformed_signature' };
  const timestamp = Number(match[1]);
  if (!sameText(await hmacHex(input.secret, `${match[1]}.${input.rawBody}`), match[2])) return { ok: false, reason: 'bad_signature' };
  const now = input.now ?? Date.now();
  if (Math.abs(now - timestamp) > (input.toleranceMs ?? DEFAULT_TOLERANCE_MS)) return { ok: false, reason: 'stale_timestamp' };
  return { ok: true, timestamp };
}
