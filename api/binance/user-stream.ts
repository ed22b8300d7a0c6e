/**
 * Binance USDⓈ-M's user-data stream on the API's HTTP server, at Binance's paths: /ws/<listenKey>, /private/ws/<listenKey>
 * and /private/ws?listenKey=<listenKey> (what ccxt opens), and the combined form /stream?streams=<listenKey> (each event
 * wrapped as {stream, data}). The listenKey is looked up before the upgrade: one that does not exist, or whose API key
 * was revoked, is refused with HTTP 400 and Binance's -1125, no socket. A socket holds a slot under its account's cap,
 * shared with the native stream; it gets its book's ORDER_TRADE_UPDATE and ACCOUNT_UPDATE (user-stream-hub.ts), and
 * listenKeyExpired when the listenKey expires (checked when it was due, a keepalive having moved it) or is closed, then
 * the close (1000).
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import type { Logger } from '../../shared/core/logger.js';
import { binanceError } from '../../shared/binance/binance-errors.js';
import { isListenKeyShaped, listenKeySocketId, type ListenKeyRecord, type ListenKeyStore } from '../../shared/binance/listen-key-store.js';
import type { OrderAnswers } from '../../shared/binance/order-answers.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import type { StreamBackplane } from '../../shared/push/stream-backplane.js';
import type { UpgradeRoute } from '../ws/stream-server.js';
import { UserSocket, UserStreamHub } from './user-stream-hub.js';

/** The listenKey an upgrade names and whether it asked for the combined form; null when the path is not this stream's. */
export function userStreamTarget(url: URL): { listenKey: string; combined: boolean } | null {
  // Binance's newer host splits streams by kind: /private/ws is where a listenKey's events are
  const path = url.pathname.startsWith('/private/') ? url.pathname.slice('/private'.length) : url.pathname;
  const inPath = /^\/ws\/([^/]*)$/.exec(path);
  if (inPath) return { listenKey: inPath[1], combined: false };
  if (path === '/ws') return { listenKey: url.searchParams.get('listenKey') ?? '', combined: false };
  if (path !== '/stream') return null;
  const named = [...(url.searchParams.get('streams')?.split('/') ?? []), url.searchParams.get('listenKey') ?? ''];
  return { listenKey: named.find(isListenKeyShaped) ?? '', combined: true };
}

/** Answers an upgrade with Binance's error in HTTP instead of a socket, and closes the connection. */
function refuseUpgrade(socket: Duplex, error: AppError): void {
  const { status, body } = binanceError(error);
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

export interface UserStreamDeps {
  /** The socket slots and account channels of this stream alone (ApiPod.openStreamBackplane): closing the stream closes it. */
  backplane: StreamBackplane;
  listenKeys: ListenKeyStore;
  /** Whether the API key a listenKey was made with is still active: a revoked key's listenKey opens no socket. */
  isActiveKey(accountId: string, keyId: string): Promise<boolean>;
  answers: OrderAnswers;
  trading: TradingServices;
  /** How long a socket's slot outlives its last renewal (STREAM_SLOT_TTL_MS): renewed, and sockets pinged, at a third. */
  slotTtlMs: number;
  clock: Clock;
  logger: Logger;
}

export interface UserStream {
  /** The handler of an upgrade at this stream's paths (for the stream server's upgrade routing). */
  route: UpgradeRoute;
  /** Closes every socket (1001), frees their slots and the pod's subscriber. */
  close(): Promise<void>;
}

/** A socket's slot under its account's cap. */
const slotOf = (s: UserSocket) => ({ accountId: s.ctx.accountId, socketId: s.slotId });

/** Every third of the slots' lifetime: a socket silent since the last ping is cut off, and the others' slots renewed. */
function startHeartbeat(hub: UserStreamHub, { backplane, clock, logger, slotTtlMs }: UserStreamDeps): NodeJS.Timeout {
  const heartbeat = setInterval(
    () => {
      const sockets = hub.sockets();
      for (const socket of sockets) {
        if (!socket.alive) socket.ws.terminate();
        socket.alive = false;
        socket.ws.ping();
      }
      backplane.slots
        .renew(sockets.map(slotOf), clock.now())
        .catch((error: unknown) => logger.warn({ err: error }, 'user stream: slots not renewed'));
    },
    Math.max(1000, Math.floor(slotTtlMs / 3)),
  );
  heartbeat.unref();
  return heartbeat;
}

/** listenKeyExpired once the listenKey is gone; while a keepalive moves it on, the check moves with it. */
function watchExpiry(deps: UserStreamDeps, socket: UserSocket, inMs: number): void {
  const { listenKeys, clock, logger } = deps;
  const timer = setTimeout(() => {
    listenKeys
      .timeLeft(socket.listenKey)
      .then((left) => (left > 0 ? watchExpiry(deps, socket, left) : socket.expire(clock.now())))
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'user stream: listenKey not checked; checked again in a minute');
        watchExpiry(deps, socket, 60_000);
      });
  }, inMs);
  socket.ws.once('close', () => clearTimeout(timer));
}

export function attachUserStream(deps: UserStreamDeps): UserStream {
  const { listenKeys, clock, logger } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false });
  const { slots, events } = deps.backplane;
  const hub = new UserStreamHub({ events, trading: deps.trading, answers: deps.answers, clock, logger });
  const podId = `${process.pid}.${randomBytes(4).toString('hex')}`;
  let counter = 0;

  const heartbeat = startHeartbeat(hub, deps);
  const open = async (ws: WebSocket, target: { listenKey: string; combined: boolean }, found: ListenKeyRecord): Promise<void> => {
    const socket = new UserSocket(
      ws,
      target.listenKey,
      target.combined,
      found.ctx,
      `${podId}.lk${++counter}`,
      listenKeySocketId(target.listenKey),
    );
    let gone = false;
    ws.once('close', () => (gone = true));
    ws.on('pong', () => (socket.alive = true));
    const cap = found.ctx.plan.limits.websocketSockets;
    if (!(await slots.claim(slotOf(socket), cap, clock.now())).ok) return void ws.close(1008, 'too_many_sockets');
    const leave = (): void => {
      hub.remove(socket);
      slots.release([slotOf(socket)]).catch((error: unknown) => logger.warn({ err: error }, 'user stream: slot not released'));
    };
    if (gone) return leave();
    ws.once('close', leave);
    await hub.add(socket);
    watchExpiry(deps, socket, found.ttlMs);
  };

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer, target: { listenKey: string; combined: boolean }) => {
    // a reset while the listenKey is looked up would be unhandled: nothing else listens yet
    const dropped = (): void => void socket.destroy();
    socket.on('error', dropped);
    const found = await listenKeys
      .find(target.listenKey)
      .then(async (record) => (record !== null && (await deps.isActiveKey(record.ctx.accountId, record.ctx.keyId)) ? record : null))
      .finally(() => socket.off('error', dropped));
    if (found === null) return refuseUpgrade(socket, new AppError('listen_key_unknown', 'This listenKey does not exist.'));
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', (error) => logger.debug({ err: error }, 'user stream: socket error'));
      open(ws, target, found).catch((error: unknown) => {
        logger.error({ err: error }, 'user stream: connection setup failed');
        ws.close(1011, 'internal error');
      });
    });
  };

  return {
    route: (url) => {
      const target = userStreamTarget(url);
      if (target === null) return null;
      return (req, socket, head) =>
        void upgrade(req, socket, head, target).catch((error: unknown) => {
          logger.error({ err: error }, 'user stream: upgrade failed');
          socket.destroy();
        });
    },
    close: async () => {
      clearInterval(heartbeat);
      const sockets = hub.sockets();
      for (const socket of sockets) socket.ws.close(1001, 'server shutting down');
      await slots.release(sockets.map(slotOf)).catch(() => undefined);
      // a socket that does not finish the closing handshake soon is cut off, so shutdown is not held up
      await new Promise((resolve) => setTimeout(resolve, sockets.length > 0 ? 200 : 0));
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await hub.close();
    },
  };
}
