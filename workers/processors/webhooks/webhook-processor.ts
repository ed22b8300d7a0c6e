/**
 * The webhooks queue's processor: POSTs one delivery, signed with the hook's secret, and counts the
 * attempt on the hook. A failed attempt throws, so BullMQ retries it with the job's backoff; a hook
 * deleted or paused meanwhile ends its jobs without sending. A worker that dies mid-delivery loses
 * its job's lock, and the job runs again elsewhere (the receiver sees the same X-PD-Delivery). Each attempt is logged
 * with the request id that caused the event (reqId, from the job; none on a job queued by an older relay), so a
 * trade is followed from the API's request line to its delivery; the id is not sent to the receiver.
 */
import type { Job } from 'bullmq';
import { webhookDeliveries, webhookDeliverySeconds } from '../../../shared/metrics/metrics.js';
import { deliveryHeaders } from '../../../shared/push/webhook-signing.js';
import { WebhookSender } from '../../../shared/push/webhook-sender.js';
import type { WebhookJob } from '../../../shared/queues/job-types.js';
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

export const webhookProcessor: ProcessorDefinition = {
  queue: QUEUES.webhooks,
  // deliveries wait on receivers, not on this process
  concurrency: 64,
  workerOptions: (config) => ({ lockDuration: config.push.webhookLockMs, stalledInterval: config.push.webhookLockMs, maxStalledCount: 10 }),
  create: ({ domain, logger }) => {
    const { config, clock } = domain;
    const store = domain.stores.webhooks;
    const sender = new WebhookSender({ allowPrivate: config.webhookAllowPrivate, timeoutMs: config.push.webhookTimeoutMs });
    const log = logger.child({ queue: QUEUES.webhooks });
    return {
      process: async (job: Job<WebhookJob>) => {
        const { accountId, hookId, event, body, reqId } = job.data;
        const jobLog = log.child({ reqId, jobId: job.id, accountId, hookId, event, attempt: job.attemptsMade + 1 });
        const hook = await store.get(accountId, hookId);
        if (!hook?.active) {
          webhookDeliveries.inc({ outcome: 'skipped' });
          jobLog.info({ skipped: hook ? 'paused' : 'deleted' }, 'webhook not sent');
          return { skipped: hook ? 'paused' : 'deleted' };
        }
        const now = clock.now();
        const headers = deliveryHeaders({ event, deliveryId: String(job.id), timestamp: now, body, secret: hook.record.secret });
        const result = await sender.send(hook.record.url, body, headers);
        const recorded = await store.recordAttempt(accountId, hookId, result, now);
        if (recorded === 'paused') jobLog.warn('webhook paused after consecutive failures');
        if (result.ok) {
          webhookDeliveries.inc({ outcome: 'delivered' });
          jobLog.info({ status: result.status, ms: result.ms }, 'webhook delivered');
          // from the job's queueing (the relay's) to the receiver's 2xx, retries included
          webhookDeliverySeconds.observe(Math.max(0, clock.now() - job.timestamp) / 1000);
          return { status: result.status, ms: result.ms };
        }
        webhookDeliveries.inc({ outcome: 'failed' });
        jobLog.warn({ status: result.status, ms: result.ms, error: result.error }, 'webhook attempt failed');
        if (recorded !== 'recorded') return { skipped: recorded };
        throw new Error(`delivery failed: ${result.error ?? 'unknown'}`);
      },
      close: () => sender.close(),
    };
  },
};
