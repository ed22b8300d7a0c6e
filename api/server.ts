import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiPod, type ApiPod } from '../shared/api-pod.js';
import { createApp, type App, type AppDeps } from './app.js';
import { Readiness } from './middleware/health.js';
import { attachUserStream, type UserStream } from './binance/user-stream.js';
import { attachStream, type StreamServer } from './ws/stream-server.js';

export interface ApiServer {
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
  close(): Promise<void>;
  /** Writes what the app holds in memory (usage counts) now instead of at its next flush. */
  flush(): Promise<void>;
}

/** The two WebSocket streams on the server: the native stream, and Binance's user-data stream at its own paths. */
function attachStreams(
  server: Server,
  deps: AppDeps,
  pod: ApiPod,
  app: Pick<App, 'services' | 'chargeRefusedKey' | 'chargeKeyedUpgrade' | 'siteSession'>,
): { stream: StreamServer; userStream: UserStream } {
  const { config, clock, trading, sweep, binance } = deps.domain;
  const { services, chargeRefusedKey, chargeKeyedUpgrade, siteSession } = app;
  const { logger } = deps;
  // the pod's one subscriber to the feed's ticks: the stream's prices and the connected books' sweep
  const ticks = pod.openTicks((error) => logger.error({ err: error }, 'unreadable price tick'));
  const connectedBookSweep = sweep.connectedBook({ logger, latestTicks: ticks });
  // Binance's user-data stream, at its own paths on the same server
  const userStream = attachUserStream({
    backplane: pod.openStreamBackplane((error) => logger.error({ err: error }, 'user stream: unreadable channel message')),
    listenKeys: binance.listenKeys,
    isActiveKey: async (accountId, keyId) => (await deps.domain.accounts.keys.get(accountId, keyId))?.revokedAt === null,
    answers: binance.answers,
    trading,
    slotTtlMs: config.push.streamSlotTtlMs,
    clock,
    logger,
  });
  const stream = attachStream(server, {
    backplane: pod.openStreamBackplane((error) => logger.error({ err: error }, 'stream: unreadable channel message')),
    config,
    logger,
    clock,
    apiKeys: services.apiKeys,
    chargeRefusedKey,
    chargeKeyedUpgrade,
    siteSession,
    trading,
    ticks,
    connectedBookSweep,
    otherUpgrades: userStream.route,
  });
  return { stream, userStream };
}

export async function startApiServer(deps: AppDeps, port = deps.domain.config.port, host = deps.domain.config.host): Promise<ApiServer> {
  const { config } = deps.domain;
  const readiness = deps.readiness ?? new Readiness();
  const pod = deps.pod ?? createApiPod(deps.domain, deps.logger);
  const {
    listener,
    flush: flushApp,
    close: closeApp,
    services,
    chargeRefusedKey,
    chargeKeyedUpgrade,
    siteSession,
  } = createApp({
    ...deps,
    readiness,
    pod,
  });
  const server = createServer(listener);
  server.keepAliveTimeout = 65_000;
  // Responses still in flight when shutdown starts close their connection instead of keeping it alive.
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // the API pod's own trouble: once it drains it takes no new requests (Redis being down is not its own: health.ts)
  readiness.add('serving', () => (draining ? { ok: false, reason: 'shutting down' } : { ok: true }));
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
  const { stream, userStream } = attachStreams(server, deps, pod, { services, chargeRefusedKey, chargeKeyedUpgrade, siteSession });
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
        const streamClosed = Promise.all([stream.close(), userStream.close()]).then(() => undefined);
        server.close(() => {
          clearTimeout(timer);
          resolve(streamClosed.then(closeApp));
        });
        server.closeIdleConnections();
      })),
  };
}
