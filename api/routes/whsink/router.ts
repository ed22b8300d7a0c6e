/**
 * /api/whsink/<token>: POST records a delivery as received (the body as sent, the X-PD-* headers),
 * GET echoes the last 20 for 15 minutes, as the original does: { deliveries: [{ ts, headers, body }] }
 * unenveloped, body parsed when it is JSON. No key: the token is the secret. A plain Express router,
 * outside the route catalog, because the path carries the token and POST takes any body. A POST is
 * metered by its address's own budget (the store), not the sender's keyless IP budget: the sender
 * is usually this service's webhook worker, whose IP a user calling the API may share; a GET is
 * metered like any keyless call. So `deliveries` goes before the /api rate limit, `echo` after it.
 */
import express, { Router, type Request } from 'express';
import type { Clock } from '../../../shared/core/clock.js';
import { AppError } from '../../../shared/core/errors.js';
import { clientBucket } from '../../../shared/rate-limit/client-bucket.js';
import {
  WHSINK_KEEP,
  WHSINK_MAX_BODY,
  WHSINK_TOKEN,
  WHSINK_TTL_MS,
  type SinkDelivery,
  type WhsinkStore,
} from '../../../shared/push/whsink-store.js';
import { respond } from '../../routing/route-catalog.js';

export const WHSINK_PATH = '/api/whsink/:token';
const KEPT_HEADERS = /^(content-type|user-agent|x-pd-.*)$/;

function token(req: Request): string {
  const value = req.params.token;
  if (typeof value !== 'string' || !WHSINK_TOKEN.test(value)) {
    throw new AppError('invalid_param', 'the token is 16 to 128 letters, digits, _ or -: pick a random one and keep it secret', {
      param: 'token',
    });
  }
  return value;
}

/** The body as JSON when it is whole JSON, else the text as received. */
function parsedBody(delivery: SinkDelivery): unknown {
  if (delivery.truncated) return delivery.body;
  try {
    return JSON.parse(delivery.body) as unknown;
  } catch {
    return delivery.body;
  }
}

/**
 * One delivery as GET shows it: the original's ts, headers and body (parsed), beside received_ts
 * (the same time under this service's earlier name), raw_body (the text exactly as received: what
 * its X-PD-Signature signs) and truncated.
 */
const deliveryView = (delivery: SinkDelivery): Record<string, unknown> => ({
  ts: delivery.received_ts,
  headers: delivery.headers,
  body: parsedBody(delivery),
  received_ts: delivery.received_ts,
  raw_body: delivery.body,
  truncated: delivery.truncated,
});

export interface WhsinkRouteOptions {
  store: WhsinkStore;
  clock: Clock;
}

/** Express routers, not a catalog group: the path has a parameter. */
export function whsinkRouters({ store, clock }: WhsinkRouteOptions): { deliveries: Router; echo: Router } {
  const deliveries = Router();
  const echo = Router();
  const rawBody = express.text({ type: () => true, limit: '64kb' });
  deliveries.post(WHSINK_PATH, rawBody, async (req, res, next) => {
    try {
      const sinkToken = token(req);
      const text = typeof req.body === 'string' ? req.body : '';
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([name]) => KEPT_HEADERS.test(name))
          .map(([name, value]) => [name, String(value)]),
      );
      await store.record(sinkToken, clientBucket(req.ip ?? req.socket.remoteAddress), {
        received_ts: clock.now(),
        headers,
        body: text.slice(0, WHSINK_MAX_BODY),
        truncated: text.length > WHSINK_MAX_BODY,
      });
      respond(res, 'envelope', { received: true });
    } catch (error) {
      next(error);
    }
  });
  echo.get(WHSINK_PATH, async (req, res, next) => {
    try {
      const { deliveries, expiresInMs } = await store.list(token(req));
      respond(res, 'bare', {
        deliveries: deliveries.map(deliveryView),
        count: deliveries.length,
        keeps: WHSINK_KEEP,
        ttl_s: WHSINK_TTL_MS / 1000,
        expires_in_s: Math.ceil(expiresInMs / 1000),
      });
    } catch (error) {
      next(error);
    }
  });
  return { deliveries, echo };
}
