/** GET JSON from a data provider: one timeout, one retry on network trouble and 5xx. */
import { isRecord } from '../market/parse-utils.js';
import { getJson, type HttpSettings } from './http-json.js';

export class ProviderFormatError extends Error {}

/** The rows of a list answer that `read` keeps (it answers undefined to leave a row out; non-objects are left out); not a list throws. */
export function providerRows<T>(body: unknown, what: string, read: (row: Record<string, unknown>) => T | undefined): T[] {
  if (!Array.isArray(body)) throw new ProviderFormatError(`${what}: the answer is not a list`);
  const out: T[] = [];
  for (const row of body) {
    const value = isRecord(row) ? read(row) : undefined;
    if (value !== undefined) out.push(value);
  }
  return out;
}

export interface ProviderHttp {
  get(url: string): Promise<unknown>;
}

export function providerHttp(timeoutMs: number, attempts = 2): ProviderHttp {
  const settings: HttpSettings = { timeoutMs, attempts, baseDelayMs: 300, maxDelayMs: 2_000 };
  return { get: (url) => getJson(url, settings) };
}

/** A URL under a provider base with query parameters (undefined ones left out). */
export function providerUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  const url = new URL(`${base}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}
