import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LatestTicks } from '../shared/market/latest-ticks.js';
import { createApp, type AppDeps } from './app.js';
import { attachStream } from './ws/stream-server.js';
import { subscriberClient } from '../shared/core/redis-client.js';

export interface ApiServer {
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
  close(): Promise<void>;
  /** Writes what the app holds in memory (usage counts) now instead of at its next flush. */
  flush(): Promise<void>;
}

export async function startApiServer(deps: AppDeps, port = deps.domain.config.port, host = deps.domain.config.host): Promise<ApiServer> {
  const { config, redis, clock, trading, sweep } = deps.domain;
  const { listener, flush: flushApp, close: closeApp, services, chargeRefusedKey, siteSession } = createApp(deps);
  const server = createServer(listener);
  server.keepAliveTimeout = 65_000;
  // Responses still in flight when shutdown starts close their connection instead of keeping it alive.
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  // attached once listening, so a failed listen leaves nothing running
  const { logger, domain } = deps;
  // the pod's one subscriber to the feed's ticks: the stream's prices and the connected books' sweep
  const ticks = new LatestTicks({
    subscriber: subscriberClient(redis),
    market: domain.marketStore,
    clock,
    freshness: domain.freshness,
    onError: (error) => logger.error({ err: error }, 'unreadable price tick'),
  });
  const connectedBookSweep = sweep.connectedBook({ logger, latestTicks: ticks });
  const stream = attachStream(server, {
    redis,
    config,
    logger,
    clock,
    apiKeys: services.apiKeys,
    chargeRefusedKey,
    siteSession,
    trading,
    ticks,
    connectedBookSweep,
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    flush: flushApp,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        draining = true;
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        const timer = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
        timer.unref();
        // WebSocket streams hold their connections open: closing them lets server.close finish
        const streamClosed = stream.close();
        server.close(() => {
          clearTimeout(timer);
          resolve(streamClosed.then(closeApp));
        });
        server.closeIdleConnections();
      })),
  };
}
