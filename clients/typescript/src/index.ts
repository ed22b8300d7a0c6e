/**
 * A typed client of the perpdesk API: openapi-fetch over the types openapi-typescript generated from
 * /api/openapi.json (./openapi.ts). Every path, query, body and answer is typed; failures become PerpdeskError
 * with the service's named code.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './openapi.js';

export type { components, operations, paths };
export { DEFAULT_TOLERANCE_MS, SIGNATURE_V2_HEADER, verifyWebhook, type WebhookDeliveryInput, type WebhookVerdict } from './webhooks.js';

/** Every error code the service answers with (its one registry, as the document lists it). */
export type ErrorCode = components['schemas']['Error']['error']['code'];
export type Position = components['schemas']['Position'];

export type PerpdeskClient = Client<paths>;

export interface ClientOptions {
  /** The service's root, e.g. https://perpdesk.example or http://127.0.0.1:3000 (no /api). */
  baseUrl: string;
  /** Sent as X-API-Key on every call; keyless routes ignore it. */
  apiKey?: string;
  /** A fetch to use instead of the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

export function createPerpdeskClient({ baseUrl, apiKey, fetch }: ClientOptions): PerpdeskClient {
  const client = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}) });
  if (apiKey !== undefined) {
    const withKey: Middleware = {
      onRequest: ({ request }) => {
        request.headers.set('X-API-Key', apiKey);
        return request;
      },
    };
    client.use(withKey);
  }
  return client;
}

/** A failed call: the HTTP status, the service's named code and message, and the body as sent. */
export class PerpdeskError extends Error {
  override readonly name = 'PerpdeskError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly body: unknown,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

type V2Error = components['schemas']['Error'];
type V1Error = components['schemas']['BotV1Error'];

/** The code and message of either error body: v2's { ok: false, error: { code, message } } or bot v1's { error, message }. */
function errorOf(body: unknown): { code: ErrorCode; message: string } | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const { error } = body as V2Error | V1Error;
  if (typeof error === 'string') return { code: error, message: String((body as V1Error).message) };
  if (typeof error === 'object' && error !== null && typeof error.code === 'string') return error;
  return undefined;
}

/** The data of a call, or its failure thrown as PerpdeskError (a body that names no code counts as `internal`). */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.error === undefined) return result.data as T;
  const named = errorOf(result.error);
  throw new PerpdeskError(result.response.status, named?.code ?? 'internal', named?.message ?? result.response.statusText, result.error);
}

export type PositionsQuery = NonNullable<operations['getApiBotV2Positions']['parameters']['query']>;

/** What GET positions answered: the list and its ETag, or `notModified` when the ETag sent still holds (304). */
export type PositionsRead = { notModified: false; etag: string | null; positions: Position[] } | { notModified: true; etag: string };

/**
 * The positions (v2), conditional on an ETag from an earlier read: nothing is transferred while ids, status,
 * quantity, stop, target and exit stay the same (the ETag leaves the mark price out).
 */
export async function readPositions(
  client: PerpdeskClient,
  options: { etag?: string; query?: PositionsQuery } = {},
): Promise<PositionsRead> {
  const result = await client.GET('/api/bot/v2/positions', {
    params: { query: options.query },
    headers: options.etag !== undefined ? { 'If-None-Match': options.etag } : {},
  });
  if (result.response.status === 304 && options.etag !== undefined) return { notModified: true, etag: options.etag };
  const { positions } = unwrap(result).data;
  return { notModified: false, etag: result.response.headers.get('ETag'), positions };
}
