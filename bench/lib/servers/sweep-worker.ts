/**
 * The worker role with only the sweep processor, in a process of its own as a worker pod runs it
 * (bench/lib/sweep-queue.ts feeds it the minute's jobs). Prints {"url": REDIS_URL} once it takes jobs.
 */
import { loadConfig } from '../../../shared/config.js';
import { applyHeapSettings } from '../../../shared/core/heap-settings.js';
import { createLogger } from '../../../shared/core/logger.js';
import { closeRedis, createRedis } from '../../../shared/redis/connection.js';
import { candleSweepProcessor } from '../../../workers/processors/sweep/candle-sweep-processor.js';
import { startWorkerRole } from '../../../workers/worker-role.js';

const config = loadConfig(process.env);
applyHeapSettings(config);
const redisUrl = config.redisUrl;
if (!redisUrl) throw new Error('sweep-worker: REDIS_URL is required');
const redis = createRedis(redisUrl);
const role = await startWorkerRole(
  { config, redis, redisUrl, logger: createLogger(config) },
  { processors: [candleSweepProcessor], schedules: [], relay: false },
);
process.stdout.write(`${JSON.stringify({ url: redisUrl })}\n`);
process.on('SIGTERM', () => {
  void role
    .stop()
    .then(() => closeRedis(redis))
    .then(() => process.exit(0));
});
