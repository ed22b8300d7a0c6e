/** The outbox relay as part of the worker role: its connections and producer over the domain's stores, and a stop that closes them. */
import type { Domain } from '../shared/domain.js';
import { OutboxRelay } from '../shared/push/outbox-relay.js';
import { createWebhookProducer } from '../shared/queues/webhook-producer.js';
import type { RoleContext, RunningRole } from './runtime.js';
import { orderedPublisher, subscriberClient } from '../shared/core/redis-client.js';

export async function startOutboxRelay(ctx: RoleContext, domain: Domain): Promise<RunningRole> {
  const { config } = ctx;
  const producer = createWebhookProducer(ctx.redisUrl, config.push.webhookRetryBaseMs);
  const subscriber = subscriberClient(ctx.redis);
  const relay = new OutboxRelay({
    store: domain.stores.outbox,
    // on a cluster, published through the node the API pods' subscribers listen on, so an account's events keep their order
    publisher: orderedPublisher(ctx.redis),
    subscriber,
    producer,
    hooks: domain.stores.webhooks,
    accounts: domain.stores.accounts,
    arena: domain.arena.recorder,
    clock: domain.clock,
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
