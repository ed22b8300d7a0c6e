/**
 * The WebSocket stream at /api/bot/v2/stream on the API's HTTP server. A socket gets welcome, a
 * snapshot of its book's positions, then position events as the outbox relay publishes them (on
 * any pod), and prices for its open symbols every tick, from the feed's ticks the pod hears. At
 * most `websocketSockets` per account across keys and pods; recycled after STREAM_MAX_AGE_MS.
 * While connected, its book is swept on every tick (the sweep module's connected-book trigger,
 * told which books are connected). The key is checked before the upgrade: a missing, bad or revoked
 * one is refused with an HTTP 401 (the error code, and a message naming api_key), no socket.
 * Close codes: 4401 key refused once connected (reason: the error code; a key revoked while
 * connected), 4429 too many sockets, 4000 recycled (reconnect), 1001 the pod is shutting down,
 * 1011 internal error.
 * Open sockets are cut the same way when their key is revoked (4401 revoked_key) or the account's
 * cap falls below the sockets it holds (4429 too_many_sockets): a notice on the account's channel
 * (socket-notices.ts) reaches every pod holding them. The key is looked up again whenever a notice
 * may have been missed: once the pod hears the account's channel, and after a gap in it.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Config } from '../../shared/config.js';
import type { LatestTicks } from '../../shared/market/latest-ticks.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { ConnectedBookSweep } from '../../shared/paper/sweep/sweep.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import type { StreamBackplane } from '../../shared/push/stream-backplane.js';
import { STREAM_CLOSE_CODES as CLOSE_CODES } from '../../shared/push/socket-notices.js';
import { ChannelFanout } from './channel-fanout.js';
import { SocketRegistry } from './socket-registry.js';
import type { KeyCheck } from './stream-client.js';
import { StreamTicker } from './stream-ticker.js';
import { endUpgrade, UpgradeAuth, type UpgradeAuthDeps } from './upgrade-auth.js';

export const STREAM_PATH = '/api/bot/v2/stream';

/** Another WebSocket on the same server (the Binance user-data stream): the handler of an upgrade at its paths, else null. */
export type UpgradeRoute = (url: URL) => ((req: IncomingMessage, socket: Duplex, head: Buffer) => void) | null;

export interface StreamDeps extends UpgradeAuthDeps {
  /** The stream's socket slots and account channels, built by the composition root (ApiPod.openStreamBackplane). */
  backplane: StreamBackplane;
  config: Config;
  trading: TradingServices;
  /** The pod's latest prices from the feed's ticks: started with the stream, closed with it. */
  ticks: LatestTicks;
  /** The sweep module's connected-book trigger: started with the pod's connected books, stopped on close. */
  connectedBookSweep: ConnectedBookSweep;
  /** The other sockets on the server, by path (the upgrades at STREAM_PATH are the stream's); none by default. */
  otherUpgrades?: UpgradeRoute;
}

export interface StreamServer {
  /** Closes every socket (1001), frees their slots and stops the ticks. */
  close(): Promise<void>;
}

/** Composes the stream: upgrade authentication, the socket registry, the channel fan-out and the ticker. */
export function attachStream(server: Server, deps: StreamDeps): StreamServer {
  const { config, logger, clock, trading, ticks, connectedBookSweep } = deps;
  const { push } = config;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false });
  const { slots, events } = deps.backplane;
  const fanout = new ChannelFanout({ events, trading, clock, logger });
  const registry = new SocketRegistry({ slots, fanout, push, clock, logger });
  const auth = new UpgradeAuth(deps);
  const ticker = new StreamTicker({
    hub: fanout.hub,
    trading,
    ticks,
    clock,
    logger,
    tickMs: push.streamTickMs,
    heartbeat: { everyTicks: Math.max(1, Math.floor(push.streamSlotTtlMs / 3 / push.streamTickMs)), run: () => registry.heartbeat() },
  });
  let closing = false;

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://stream');
    const other = url.pathname === STREAM_PATH || closing ? null : deps.otherUpgrades?.(url);
    if (other) return other(req, socket, head);
    if (url.pathname !== STREAM_PATH || closing) {
      endUpgrade(socket, closing ? 503 : 404);
      return;
    }
    auth
      .admit(req, socket, url)
      .then((admitted) => {
        if (admitted !== null) accept(req, socket, head, admitted.check, admitted.ctx);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'stream: upgrade failed');
        socket.destroy();
      });
  });

  function accept(req: IncomingMessage, socket: Duplex, head: Buffer, check: () => Promise<KeyCheck>, ctx: KeyContext): void {
    // shutdown began while the key was looked up
    if (closing) return endUpgrade(socket, 503);
    wss.handleUpgrade(req, socket, head, (ws) => {
      registry.track(ws, req);
      // a bad frame (too large, malformed) closes that socket (1009, 1002); unheard, the error would end the process
      ws.on('error', (error) => logger.debug({ err: error }, 'stream: socket error'));
      registry.open(ws, check, ctx).catch((error: unknown) => {
        logger.error({ err: error }, 'stream: connection setup failed');
        ws.close(CLOSE_CODES.internal, 'internal error');
      });
    });
  }

  // heard before the first tick, so it finds the prices published since
  ticks.start().catch((error: unknown) => logger.warn({ err: error }, 'stream: price ticks not heard yet'));
  ticker.start();
  // the books that may hold positions (their symbols not read yet, or some open)
  connectedBookSweep.start(() =>
    fanout.hub.groups().flatMap((group) => (group.symbols === null || group.symbols.length > 0 ? [group.ref] : [])),
  );

  return {
    close: async () => {
      closing = true;
      await Promise.all([ticker.stop(), connectedBookSweep.stop()]);
      await registry.closeAll();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await Promise.all([fanout.hub.close(), ticks.close()]);
    },
  };
}
