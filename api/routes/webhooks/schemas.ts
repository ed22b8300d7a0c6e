/** Request schema of POST /webhooks: act add (url, events), delete (id), test (id). */
import Joi from 'joi';
import { WEBHOOK_EVENTS } from '../../../shared/push/push-event.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../../../shared/push/webhook-url-guard.js';
import type { FieldMeta } from '../../routing/validate.js';

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });

export const webhooksBody = Joi.object({
  act: Joi.string().trim().lowercase().valid('add', 'delete', 'test').required().description('add, delete or test'),
  url: Joi.string()
    .trim()
    .max(MAX_WEBHOOK_URL_LENGTH)
    .meta(codes({ 'string.base': 'bad_url', 'string.empty': 'bad_url', 'string.max': 'bad_url' }))
    .description('add: the https address events are POSTed to (public addresses only)'),
  events: Joi.array()
    .items(
      Joi.string()
        .trim()
        .valid(...WEBHOOK_EVENTS),
    )
    .single()
    .max(WEBHOOK_EVENTS.length)
    .unique()
    .meta(
      codes({
        'array.base': 'bad_event',
        'array.max': 'bad_event',
        'array.unique': 'bad_event',
        'array.sparse': 'bad_event',
        'any.only': 'bad_event',
        'string.base': 'bad_event',
        'string.empty': 'bad_event',
      }),
    )
    .description(`add: events to send (omitted: all): ${WEBHOOK_EVENTS.join(', ')}`),
  id: Joi.string()
    .trim()
    .max(64)
    .meta(codes({ 'string.base': 'id_required', 'string.empty': 'id_required' }))
    .description('delete, test: the webhook id'),
});

export interface WebhooksBody {
  act: 'add' | 'delete' | 'test';
  url?: string;
  events?: (typeof WEBHOOK_EVENTS)[number][];
  id?: string;
}
