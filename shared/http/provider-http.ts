/** GET JSON from a data provider: one timeout, one retry on network trouble and 5xx. */
import { getJson, type HttpSettings } from './http-json.js';

export class ProviderFormatError extends Error {}

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
