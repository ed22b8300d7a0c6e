/** The orders queue's processor: expires the resting orders whose 30 days are up (scheduled every minute, once per cluster). */
import { OrderExpiry } from '../../../shared/paper/orders/order-expiry.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

/** How often the expiry job runs: an order expires at most this long after its 30 days. */
export const ORDER_EXPIRY_EVERY_MS = 60_000;

export const orderExpiryProcessor: ProcessorDefinition = {
  queue: QUEUES.orders,
  create: ({ domain, logger }) => {
    const { stores, clock } = domain;
    const expiry = new OrderExpiry(stores.orders, clock);
    const log = logger.child({ queue: QUEUES.orders });
    return {
      process: async (job) => {
        // the job's id on the outbox entries of the orders it expires, and on its log line
        const reqId = String(job.id);
        const result = await expiry.expireDue(reqId);
        if (result.expired > 0) log.info({ reqId, ...result }, 'resting orders expired');
        return result;
      },
    };
  },
};
