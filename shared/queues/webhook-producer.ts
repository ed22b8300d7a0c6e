/** The producer side of the webhook queue: the outbox relay adds one job per hook and event. */
import { webhookJobOptions } from '../push/webhook-retry-policy.js';
import { webhookJobId, type WebhookJob } from './job-types.js';
import { openProducerQueue } from './producer-queue.js';
import { QUEUES } from './queue-names.js';

export interface WebhookDelivery {
  job: WebhookJob;
  /** The outbox item it delivers (entry id, .1 for an entry's second item). */
  itemId: string;
}

export interface WebhookProducer {
  /** Adds the jobs with their deterministic ids in one round trip; ids already queued or kept are skipped. */
  enqueue(deliveries: WebhookDelivery[]): Promise<void>;
  close(): Promise<void>;
}

export function createWebhookProducer(redisUrl: string, retryBaseMs: number): WebhookProducer {
  const { queue, close } = openProducerQueue<WebhookJob, 'deliver'>(redisUrl, QUEUES.webhooks, webhookJobOptions(retryBaseMs));
  return {
    async enqueue(deliveries) {
      if (deliveries.length === 0) return;
      await queue.addBulk(
        deliveries.map(({ job, itemId }) => ({ name: 'deliver' as const, data: job, opts: { jobId: webhookJobId(job.hookId, itemId) } })),
      );
    },
    close,
  };
}
