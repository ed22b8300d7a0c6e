/**
 * The list parameters of Binance's batch calls, pure: `batchOrders` (a JSON array of order objects) and
 * `orderIdList` / `origClientOrderIdList` (a JSON array of ids). Binance's own ids are numbers, so clients send the
 * list unquoted (ccxt: `[123,456]`); ours are words, so an unquoted list of them is taken too.
 */
import type { ErrorCode } from '../core/errors.js';

export type BatchOrderList =
  { list: Record<string, string>[] } | { error: Extract<ErrorCode, 'missing_param' | 'invalid_param'>; message: string };

const ID = /^[.A-Z:/a-z0-9_-]{1,64}$/;

const invalid = (message: string): BatchOrderList => ({ error: 'invalid_param', message });

/** The orders of `batchOrders`, each one's values as strings (as a single order's form parameters arrive). */
export function parseOrderList(raw: string | undefined): BatchOrderList {
  if (raw === undefined || raw === '')
    return { error: 'missing_param', message: "Mandatory parameter 'batchOrders' was not sent, was empty/null, or malformed." };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return invalid("Data sent for parameter 'batchOrders' is not valid: not a JSON array.");
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return invalid("Data sent for parameter 'batchOrders' is not valid: an empty list.");
  const list: Record<string, string>[] = [];
  for (const item of parsed) {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      return invalid("Data sent for parameter 'batchOrders' is not valid: each order is an object.");
    const fields = Object.entries(item as Record<string, unknown>).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v));
    list.push(Object.fromEntries(fields.map(([k, v]) => [k, String(v)])));
  }
  return { list };
}

/** The ids of a JSON list, quoted or not (`["a","b"]`, `[1,2]`, `[a,b]`); null when it is not such a list. */
export function parseIdList(raw: string): string[] | null {
  const text = raw.trim();
  if (!text.startsWith('[') || !text.endsWith(']')) return null;
  const inner = text.slice(1, -1).trim();
  if (inner === '') return null;
  const ids = inner.split(',').map((part) => part.trim().replace(/^"(.*)"$/, '$1'));
  return ids.every((id) => ID.test(id)) ? ids : null;
}
