/** Webhooks (paid plans): GET lists them, POST adds (secret returned once), deletes or tests one. */
import { AppError } from '../../../shared/core/errors.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import { WEBHOOK_EVENTS } from '../../../shared/push/push-event.js';
import type { WebhookService } from '../../../shared/push/webhook-service.js';
import { SIGNATURE_HEADER, SIGNATURE_SCHEME, SIGNATURE_V2_HEADER, SIGNATURE_V2_SCHEME } from '../../../shared/push/webhook-signing.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { BOT_RESPONSES } from '../bot-trading/responses.js';
import { webhooksBody, type WebhooksBody } from './schemas.js';

const DELIVERY =
  'Each event is POSTed as JSON { event, ts, hook_id, data } (data: the position; a book key adds account) with headers ' +
  `X-PD-Event, X-PD-Delivery (the same on every retry), X-PD-Timestamp (this attempt's send time, ms), ${SIGNATURE_HEADER}: ` +
  `${SIGNATURE_SCHEME}, ` +
  `and ${SIGNATURE_V2_HEADER}: ${SIGNATURE_V2_SCHEME}. Check ${SIGNATURE_V2_HEADER} to refuse a replayed delivery. ` +
  'Answer 2xx within 6 s, or it is retried 5 times (after 30 s, 1, 2, 4 and 8 minutes); 25 failures in a row pause the hook (active ' +
  'false).';

function requireId(id: string | undefined): string {
  if (id === undefined) throw new AppError('id_required', 'id is required: the webhook id from GET webhooks', { param: 'id' });
  return id;
}

export interface WebhookRouteOptions {
  webhooks: WebhookService;
  authenticate: Authenticate;
}

export function webhookRoutes({ webhooks, authenticate }: WebhookRouteOptions): RouteGroup {
  return defineRoutes(
    keyedBotRoutes('bot push', [
      {
        path: '/webhooks',
        method: 'get',
        response: BOT_RESPONSES.webhooks,
        summary:
          'Your webhooks with delivery counts, consecutive_failures, last_error and active; the event names and the signature ' +
          'scheme (Pro and above)',
        description: DELIVERY,
        errors: ['plan_required'],
        example: {
          response: {
            webhooks: [
              {
                id: 'whA1b2C3d4E5f6G7h8',
                url: 'https://example.org/hook',
                events: ['position.closed'],
                active: true,
                deliveries: 12,
                failures: 1,
                consecutive_failures: 0,
                last_error: null,
              },
            ],
            max: 3,
            events: WEBHOOK_EVENTS,
          },
        },
        handle: ({ auth }: { auth: KeyContext }) => webhooks.list(auth),
      },
      {
        path: '/webhooks',
        method: 'post',
        response: BOT_RESPONSES.webhookAct,
        summary:
          'act add (url, events; the secret is returned once), delete (id) or test (id: answers the HTTP status your server gave; ' +
          "the ping counts in the hook's deliveries or failures)",
        description: DELIVERY,
        body: webhooksBody,
        errors: ['plan_required', 'bad_url', 'bad_event', 'too_many_webhooks', 'webhook_not_found', 'id_required'],
        example: {
          body: { act: 'add', url: 'https://example.org/hook', events: ['position.opened', 'position.closed'] },
          response: {
            ok: true,
            webhook: {
              id: 'whA1b2C3d4E5f6G7h8',
              url: 'https://example.org/hook',
              secret: 'whs_...',
              events: ['position.opened', 'position.closed'],
              active: true,
            },
          },
        },
        handle: ({ body, auth }: { body: WebhooksBody; auth: KeyContext }) => {
          if (body.act === 'add') return webhooks.add(auth, { url: body.url, events: body.events });
          if (body.act === 'delete') return webhooks.remove(auth, requireId(body.id));
          return webhooks.test(auth, requireId(body.id));
        },
      },
    ]),
    { authenticate },
  );
}
