/**
 * Binance's SIGNED request check, pure: the signature is the hex HMAC-SHA256, under the key's secret, of totalParams
 * (the query string followed by the request body, as sent, without the signature parameter itself), and the request
 * counts only within recvWindow ms of its timestamp (and no more than a second ahead of the server's clock).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ErrorCode } from '../core/errors.js';

/** Binance's default and largest recvWindow, ms. */
export const DEFAULT_RECV_WINDOW_MS = 5_000;
export const MAX_RECV_WINDOW_MS = 60_000;
/** How far ahead of the server's clock a timestamp may be: Binance's one second. */
const AHEAD_MS = 1_000;

export interface SignedParts {
  /** The raw query string after '?', '' when none. */
  query: string;
  /** The raw form body, '' when none. */
  body: string;
}

/** Why a signed request is refused, with the parameter it concerns. */
export interface SignedRefusal {
  code: Extract<ErrorCode, 'missing_param' | 'invalid_param' | 'stale_timestamp' | 'bad_signature'>;
  param: 'timestamp' | 'recvWindow' | 'signature';
}

const pairs = (raw: string): string[] => (raw === '' ? [] : raw.split('&'));
const isSignature = (pair: string): boolean => pair.startsWith('signature=');

/** The text Binance signs: the query's and then the body's parameters, each as sent, the signature left out. */
export function totalParams(parts: SignedParts): string {
  const query = pairs(parts.query)
    .filter((pair) => !isSignature(pair))
    .join('&');
  const body = pairs(parts.body)
    .filter((pair) => !isSignature(pair))
    .join('&');
  return query + body;
}

export function signParams(text: string, secret: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

/** A whole number of ms, or NaN. */
const wholeMs = (raw: string | undefined): number => (raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN);

/**
 * null when the request is signed with `secret` and fresh at `now`; else the refusal. `params`: the request's
 * parameters, query and body merged (the query's value first, as Binance reads a parameter sent in both).
 */
export function checkSignedRequest(
  parts: SignedParts,
  params: Readonly<Record<string, string>>,
  secret: string,
  now: number,
): SignedRefusal | null {
  if (params.timestamp === undefined) return { code: 'missing_param', param: 'timestamp' };
  const timestamp = wholeMs(params.timestamp);
  if (Number.isNaN(timestamp)) return { code: 'invalid_param', param: 'timestamp' };
  const recvWindow = params.recvWindow === undefined ? DEFAULT_RECV_WINDOW_MS : wholeMs(params.recvWindow);
  if (Number.isNaN(recvWindow) || recvWindow <= 0 || recvWindow > MAX_RECV_WINDOW_MS) return { code: 'invalid_param', param: 'recvWindow' };
  if (timestamp >= now + AHEAD_MS || now - timestamp > recvWindow) return { code: 'stale_timestamp', param: 'timestamp' };
  const given = params.signature;
  if (given === undefined || given === '') return { code: 'missing_param', param: 'signature' };
  const expected = Buffer.from(signParams(totalParams(parts), secret));
  const sent = Buffer.from(given.toLowerCase());
  return sent.length === expected.length && timingSafeEqual(sent, expected) ? null : { code: 'bad_signature', param: 'signature' };
}

/** The parameters of a request: the body's, then the query's over them (Binance takes the query's when both send one). */
export function requestParams(parts: SignedParts): Record<string, string> {
  const params: Record<string, string> = {};
  for (const raw of [parts.body, parts.query]) for (const [name, value] of new URLSearchParams(raw)) params[name] = value;
  return params;
}
