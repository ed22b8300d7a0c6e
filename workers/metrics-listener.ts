/**
 * The process's metrics for Prometheus: the scrape-time sources (queue counts, Redis round trip, outbox relay lag) on
 * the process's shared connection, and, with METRICS_PORT set, a listener of its own serving
 * GET /metrics (worker and feed processes have no HTTP server), and the orchestrator's /healthz and
 * /readyz probes. The listener is meant for an internal network; with METRICS_TOKEN set /metrics asks for
 * the token all the same (the API's /metrics does too), so a port exposed by mistake shows nothing.
 */
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorHandler } from '../api/middleware/error-handler.js';
import { healthRoutes, Readiness } from '../api/middleware/health.js';
import { opsAuth } from '../api/middleware/ops-auth.js';
import { CoalescingLimiter } from '../shared/rate-limit/coalescing-limiter.js';
import type { Logger } from '../shared/core/logger.js';
import { addScrapeSources, metricsReadable, scrape, startDefaultMetrics } from '../shared/metrics/metrics.js';
import { outboxLagSeconds } from '../shared/push/outbox-lag.js';
import type { Domain } from '../shared/domain.js';
import { connectionHealth } from '../shared/redis/connection.js';
import { QueueCountsReader } from '../shared/queues/queue-counts.js';

export interface ProcessMetrics {
  /** The listener's URL, when METRICS_PORT is set. */
  url: string | undefined;
  stop(): Promise<void>;
}

/** `domain`: the composition root on the process's shared connection (its outbox store reports the relay's lag). */
export async function startProcessMetrics(
  domain: Pick<Domain, 'config' | 'redis' | 'stores'>,
  logger: Logger,
  readiness: Readiness = new Readiness(),
): Promise<ProcessMetrics> {
  const { config, redis } = domain;
  if (!metricsReadable(config)) return { url: undefined, stop: () => Promise.resolve() };
  startDefaultMetrics();
  const queues = new QueueCountsReader(redis);
  const { outbox } = domain.stores;
  const removeSources = addScrapeSources({
    queueCounts: () => queues.counts(),
    redisPing: async () => {
      const started = performance.now();
      await redis.ping();
      return (performance.now() - started) / 1000;
    },
    outboxLag: async () => outboxLagSeconds(await outbox.lastScan(), Date.now(), config.push.relayScanMs),
  });
  let server: Server | undefined;
  const stop = async (): Promise<void> => {
    removeSources();
    if (server) await new Promise<void>((resolve) => server?.close(() => resolve()));
    await queues.close();
  };
  if (config.metricsPort === undefined) return { url: undefined, stop };
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRoutes(connectionHealth(redis), readiness));
  if (config.metricsToken !== undefined) {
    // built before any traffic: rate-limiter-flexible defines its script on the connection (coalescing-limiter.ts)
    const limiter = new CoalescingLimiter(redis, [config.badKeyRateLimit]);
    app.use(opsAuth(config.metricsToken, { limiter, perMinute: config.badKeyRateLimit }, 'METRICS_TOKEN'));
  }
  app.get('/metrics', async (_req, res) => {
    const { contentType, body } = await scrape();
    res.set('Content-Type', contentType).send(body);
  });
  // refusals answered by name, as the API answers them
  app.use(errorHandler(logger));
  server = createServer(app);
  try {
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject);
      server?.listen(config.metricsPort, config.host, () => resolve());
    });
  } catch (error) {
    server = undefined;
    await stop();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${port}/metrics`;
  logger.info({ url }, 'metrics listening');
  return { url, stop };
}
