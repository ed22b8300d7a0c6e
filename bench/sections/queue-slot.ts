/**
 * What one webhook job costs the master that holds the `{bull}` slot: every queue's keys share that one hash tag, so
 * that master's one core bounds the jobs per second of the whole service (docs/CAPACITY.md). Jobs as the relay adds
 * them (the webhook producer, its options and ids, one job per drained outbox, 16 drains at once), taken and completed by a BullMQ worker
 * with the webhook processor's concurrency that does nothing else; the master's CPU from /proc, minus what it spends
 * idle over as long (the feed's prices land on it too), per job.
 */
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { createWebhookProducer } from '../../shared/queues/webhook-producer.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { webhookProcessor } from '../../workers/processors/webhooks/webhook-processor.js';
import { processCpuMs } from '../lib/harness.js';
import { redisPid } from './redis-cost.js';

export interface QueueSlotCost {
  jobs: number;
  /** Redis CPU per job on the master of the `{bull}` slot, µs (idle subtracted). */
  bullMasterUsPerJob: number;
  /** Every master summed, µs per job (idle subtracted): the rest is the cluster's own traffic. */
  allMastersUsPerJob: number;
  /** Wall time of the run, ms. */
  ms: number;
  /** used_memory the master of the slot grew by, per job: a completed job is kept 5 minutes (webhookJobOptions). */
  bytesPerKeptJob: number;
}

/** Outboxes one relay drains at once (shared/push/outbox-relay.ts): with an event pending per account, each drain adds its one job. */
const PARALLEL = 16;
/** About an open's event body (the position JSON with its envelope). */
const BODY = JSON.stringify({ event: 'position.opened', position: { pad: 'x'.repeat(700) } });

/** The master (of `nodes`, one connection per master) that serves the `{bull}` slot. */
async function bullMaster(nodes: Redis[]): Promise<Redis> {
  const slot = Number(await nodes[0].call('CLUSTER', 'KEYSLOT', QUEUE_PREFIX));
  const ranges = (await nodes[0].call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const owner = ranges.find(([from, to]) => slot >= from && slot <= to);
  const node = nodes.find((n) => n.options.port === Number(owner?.[2][1]));
  if (!node) throw new Error(`bench: no master serves slot ${slot}`);
  return node;
}

export async function measureQueueSlot(clusterUrl: string, nodes: Redis[], jobs: number): Promise<QueueSlotCost> {
  const master = await bullMaster(nodes);
  const bullPid = await redisPid(master);
  const usedMemory = async (): Promise<number> => Number(/used_memory:(\d+)/.exec(await master.info('memory'))?.[1]);
  const allPids = await Promise.all(nodes.map(redisPid));
  const cpu = (pids: number[]): number => pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? NaN), 0);
  const producer = createWebhookProducer(clusterUrl, 30_000);
  const connection = createBlockingRedis(clusterUrl);
  let completed = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const worker = new Worker(QUEUES.webhooks, async () => undefined, {
    connection,
    prefix: QUEUE_PREFIX,
    concurrency: webhookProcessor.concurrency,
  });
  worker.on('completed', () => {
    completed += 1;
    if (completed === jobs) allDone();
  });
  try {
    await worker.waitUntilReady();
    // idle: what the masters spend with no job, over about as long as a run takes
    const idleAt = performance.now();
    const idle = { bull: cpu([bullPid]), all: cpu(allPids) };
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idleMs = performance.now() - idleAt;
    const idlePerMs = { bull: (cpu([bullPid]) - idle.bull) / idleMs, all: (cpu(allPids) - idle.all) / idleMs };

    const stamp = Date.now().toString(36);
    const startedAt = performance.now();
    const before = { bull: cpu([bullPid]), all: cpu(allPids), memory: await usedMemory() };
    const enqueue = (n: number): Promise<void> =>
      producer.enqueue([
        { job: { accountId: `bench-${n % 1000}`, hookId: `h${stamp}`, event: 'position.opened', body: BODY }, itemId: `${n}-0` },
      ]);
    for (let i = 0; i < jobs; i += PARALLEL)
      await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs - i) }, (_, j) => enqueue(i + j)));
    await done;
    const ms = performance.now() - startedAt;
    const spent = (pids: number[], from: number, perMs: number): number => Math.round(((cpu(pids) - from - perMs * ms) * 1000) / jobs);
    return {
      jobs,
      bullMasterUsPerJob: spent([bullPid], before.bull, idlePerMs.bull),
      allMastersUsPerJob: spent(allPids, before.all, idlePerMs.all),
      ms: Math.round(ms),
      bytesPerKeptJob: Math.round(((await usedMemory()) - before.memory) / jobs),
    };
  } finally {
    await worker.close();
    await producer.close();
    await closeRedis(connection);
  }
}
