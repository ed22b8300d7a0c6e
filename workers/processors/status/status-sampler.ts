/**
 * The status sampler: every STATUS_SAMPLE_MS (a job scheduler, so once per cluster), every
 * component's state now, counted in today's availability (shared/status).
 */
import { QUEUES } from '../../../shared/queues/queue-names.js';
import type { ProcessorDefinition } from '../registry.js';

export const statusSampler: ProcessorDefinition = {
  queue: QUEUES.status,
  create: ({ domain: { status } }) => ({ process: () => status.sample() }),
};
