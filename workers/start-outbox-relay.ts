/** The outbox relay as part of the worker role: its connections, producer and stores, and a stop that closes them. */
import { systemClock } from '../shared/core/clock.js';
import { AccountStore } from '../shared/paper/accounts/account-store.js';
import { OutboxRelay } from '../shared/push/outbox-relay.js';
import { WebhookStore } from '../shared/push/webhook-store.js';
import { createWebhookProducer } from '../shared/queues/webhook-producer.js';
import type { RoleContext, RunningRole } from './runtime.js';

export async function startOutboxRelay(ctx: RoleContext): Promise<RunningRole> {
  const { config } = ctx;
  const producer = createWebhookProducer(ctx.redisUrl, config.push.webhookRetryBaseMs);
  const subscriber = ctx.redis.duplicate();
  const relay = new OutboxRelay({
    redis: ctx.redis,
    subscriber,
    producer,
    hooks: new WebhookStore(ctx.redis),
    accounts: new AccountStore(ctx.redis),
    clock: systemClock,
    logger: ctx.logger.child({ part: 'outbox-relay' }),
    leaseMs: config.push.relayLeaseMs,
    scanMs: config.push.relayScanMs,
  });
  try {
    await relay.start();
  } catch (error) {
    await relay.stop();
    await producer.close();
    throw error;
  }
  return {
    name: 'outbox-relay',
    stop: async () => {
      await relay.stop();
      await producer.close();
    },
  };
}
