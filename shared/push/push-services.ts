/** What the API needs of push: the webhooks service and the whsink store. */
import type { RedisClient } from '../core/redis-client.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import { WebhookService } from './webhook-service.js';
import type { WebhookStore } from './webhook-store.js';
import { WhsinkStore } from './whsink-store.js';

export interface PushServices {
  webhooks: WebhookService;
  whsink: WhsinkStore;
}

export function createPushServices(deps: { redis: RedisClient; webhooks: WebhookStore; config: Config; clock: Clock }): PushServices {
  const { redis, webhooks, config, clock } = deps;
  const policy = { allowPrivate: config.webhookAllowPrivate };
  return {
    webhooks: new WebhookService({ store: webhooks, policy, timeoutMs: config.push.webhookTimeoutMs, clock }),
    whsink: new WhsinkStore(redis, clock, {
      perMinute: config.whsinkRateLimit,
      maxSinks: config.whsinkMaxSinks,
      perClient: config.whsinkClientMaxSinks,
    }),
  };
}
