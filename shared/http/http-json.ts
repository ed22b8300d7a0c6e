/** GET a JSON body from an exchange with a timeout and retries (backoff with jitter). */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { backoffDelay } from '../core/backoff.js';
import { linkedSignal } from '../core/linked-signal.js';
import { excerpt } from '../market/parse-utils.js';

export class HttpError extends Error {
  constructor(
    message: string,
    /** HTTP status, when a response came back. */
    readonly status: number | undefined,
    /** Network trouble, 5xx and 429 are worth retrying; other 4xx are answers. */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface HttpSettings {
  timeoutMs: number;
  /** Total tries, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

async function once(url: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  // `signal` may live as long as the process (a refresher's stop): linked, then unhooked when this request ends
  const combined = linkedSignal(signal, timeout);
  try {
    let res;
    try {
      res = await request(url, { method: 'GET', signal: combined.signal, headers: { accept: 'application/json' } });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = timeout.aborted ? `timed out after ${timeoutMs} ms` : error instanceof Error ? error.message : String(error);
      throw new HttpError(`GET ${url}: ${reason}`, undefined, true);
    }
    const text = await res.body.text();
    if (res.statusCode >= 400) {
      const retryable = res.statusCode >= 500 || res.statusCode === 429 || res.statusCode === 418;
      throw new HttpError(`GET ${url}: HTTP ${res.statusCode} ${excerpt(text)}`, res.statusCode, retryable);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new HttpError(`GET ${url}: body is not JSON: ${excerpt(text)}`, res.statusCode, true);
    }
  } finally {
    combined.release();
  }
}

/** The parsed body; throws HttpError after the last retry, or the abort error when `signal` fires. */
export async function getJson(url: string, settings: HttpSettings, signal?: AbortSignal): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(url, settings.timeoutMs, signal);
    } catch (error) {
      if (signal?.aborted || (isAbort(error) && !(error instanceof HttpError))) throw error;
      const retryable = error instanceof HttpError ? error.retryable : true;
      if (!retryable || attempt + 1 >= settings.attempts) throw error;
      await sleep(backoffDelay(attempt, settings.baseDelayMs, settings.maxDelayMs), undefined, { signal });
    }
  }
}

export function withQuery(base: string, path: string, query: Record<string, string | number | undefined>): string {
  const url = new URL(`${base}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}
