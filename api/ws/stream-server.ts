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
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { subscriberClient, type RedisClient } from '../../shared/core/redis-client.js';
import { WebSocket, WebSocketServer } from 'ws';
import type { Clock } from '../../shared/core/clock.js';
import type { Config } from '../../shared/core/config.js';
import { AppError } from '../../shared/core/errors.js';
import type { Logger } from '../../shared/core/logger.js';
import type { LatestTicks } from '../../shared/market/latest-ticks.js';
import type { ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { ConnectedBookSweep } from '../../shared/paper/sweep/sweep.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import { AccountEvents } from '../../shared/push/account-events.js';
import { STREAM_CLOSE_CODES as CLOSE_CODES } from '../../shared/push/socket-notices.js';
import { SocketSlots } from '../../shared/push/socket-slots.js';
import { isRedisUnreachable } from '../../shared/core/redis-unreachable.js';
import { redisUnavailable } from '../middleware/redis-gate.js';
import { resolveApiKey } from '../middleware/authenticate.js';
import { StreamClient, type KeyCheck } from './stream-client.js';
import { StreamHub } from './stream-hub.js';
import { handleClientMessage, streamMessage } from './stream-messages.js';
import { StreamTicker } from './stream-ticker.js';
import { wsOpenSockets } from '../../shared/metrics/metrics.js';

export const STREAM_PATH = '/api/bot/v2/stream';

const KEY_HINT = 'connect with ?api_key=<API_KEY> (or key=, token=) of an active key';
/** What an upgrade refused for its key is told, by the error code. */
const REFUSED_KEY_MESSAGES: Record<Extract<KeyCheck, { code: string }>['code'], string> = {
  missing_api_key: 'an API key is required: connect with ?api_key=<API_KEY> (or key=, token=)',
  bad_api_key: `the API key is not valid: ${KEY_HINT}`,
  revoked_key: `this API key was revoked: ${KEY_HINT}`,
  login_required: 'the site session has ended: sign in again',
  cross_site: "a site session's stream must be opened from the site's own pages",
};
/** What a socket cut by a notice is told, by the notice's reason. */
const NOTICE_MESSAGES: Record<string, string> = {
  revoked_key: 'this key was revoked',
  too_many_sockets: "the account's plan now allows fewer streams: this one was closed",
  login_required: 'the site session was signed out',
};

export interface StreamDeps {
  redis: RedisClient;
  config: Config;
  logger: Logger;
  clock: Clock;
  apiKeys: ApiKeyResolver;
  /** Charges an upgrade's refused key to its client address (the HTTP rate limit's budget): the 429 past it, else null. */
  chargeRefusedKey(req: IncomingMessage): Promise<AppError | null>;
  trading: TradingServices;
  /** The pod's latest prices from the feed's ticks: started with the stream, closed with it. */
  ticks: LatestTicks;
  /** The sweep module's connected-book trigger: started with the pod's connected books, stopped on close. */
  connectedBookSweep: ConnectedBookSweep;
  /**
   * A signed-in site page's stream (no key, the session cookie): the check of its session, run before the upgrade and
   * again whenever a key would be looked up again; null when the request carries no session cookie.
   */
  siteSession?: (req: IncomingMessage, url: URL) => (() => Promise<KeyCheck>) | null;
}

export interface StreamServer {
  /** Closes every socket (1001), frees their slots and stops the ticks. */
  close(): Promise<void>;
}

/** The key of a stream request: api_key, or its aliases key and token. */
function streamKey(url: URL): string | null {
  for (const name of ['api_key', 'key', 'token']) {
    const value = url.searchParams.get(name);
    if (value) return value;
  }
  return null;
}

/** Answers an upgrade with an empty HTTP status instead of a socket, and closes the connection. */
function endUpgrade(socket: Duplex, status: 404 | 503): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Answers an upgrade with an HTTP error in the v2 envelope instead of a socket, and closes the connection. */
function refuseUpgrade(socket: Duplex, error: AppError, now: number): void {
  const body = JSON.stringify({ ok: false, error: { code: error.code, message: error.message, ...error.details }, ts: now });
  const retry = typeof error.details.retry_after === 'number' ? `Retry-After: ${error.details.retry_after}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${retry}\r\n${body}`,
  );
}

const isKeyRefusal = (code: string): code is keyof typeof REFUSED_KEY_MESSAGES => code in REFUSED_KEY_MESSAGES;

/** The key's context, or the code it is refused with (the same rules as keyed HTTP routes). */
async function checkKey(apiKeys: ApiKeyResolver, key: string | null): Promise<KeyCheck> {
  try {
    return { context: await resolveApiKey(apiKeys, key) };
  } catch (error) {
    if (error instanceof AppError && isKeyRefusal(error.code)) return { code: error.code };
    throw error;
  }
}

export function attachStream(server: Server, deps: StreamDeps): StreamServer {
  const { config, logger, clock } = deps;
  const { push } = config;
  const podId = `${process.pid}.${randomBytes(4).toString('hex')}`;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false });
  const events = new AccountEvents(subscriberClient(deps.redis), (error) =>
    logger.error({ err: error }, 'stream: unreadable channel message'),
  );
  const hub = new StreamHub(events, logger);
  // events published while the pod's subscriber was reconnecting are lost to it: each socket gets a
  // fresh snapshot instead, so what it shows is right again (and its key, the notices it missed)
  hub.onGap((clients) => {
    for (const client of clients) {
      client.hold();
      refresh(client).catch((error: unknown) => {
        logger.warn({ err: error }, 'stream: snapshot after a gap failed');
        client.ws.close(CLOSE_CODES.internal, 'internal error');
      });
    }
  });
  hub.onNotice((clients, notice) => {
    for (const client of clients) refuse(client.ws, notice.code, notice.reason, NOTICE_MESSAGES[notice.reason] ?? 'closed by the service');
  });
  const slots = new SocketSlots(deps.redis, push.streamSlotTtlMs);
  // a socket that stopped answering pings is cut off; the others' slots are pushed forward, well within their TTL
  const heartbeat = (): void => {
    const clients = hub.clients();
    for (const client of clients) {
      if (!client.alive) client.ws.terminate();
      client.alive = false;
      client.ws.ping();
    }
    slots
      .renew(
        clients.map((c) => ({ accountId: c.ref.accountId, socketId: c.socketId })),
        clock.now(),
      )
      .catch((error: unknown) => logger.warn({ err: error }, 'stream: slots not renewed'));
  };
  const { ticks } = deps;
  const ticker = new StreamTicker({
    hub,
    trading: deps.trading,
    ticks,
    clock,
    logger,
    tickMs: push.streamTickMs,
    heartbeat: { everyTicks: Math.max(1, Math.floor(push.streamSlotTtlMs / 3 / push.streamTickMs)), run: heartbeat },
  });
  const sockets = new Set<WebSocket>();
  let counter = 0;
  let closing = false;

  const send = (ws: WebSocket, type: string, data: unknown): void => ws.send(JSON.stringify(streamMessage(type, data, clock.now())));

  /** The key again, then a snapshot: what a socket needs once its account's notices and events may have been missed. */
  async function refresh(client: StreamClient): Promise<void> {
    const checked = await client.checkKey();
    if ('code' in checked) return refuse(client.ws, CLOSE_CODES.keyRefused, checked.code, KEY_HINT);
    const snapshot = await deps.trading.reads.positions(client.ctx, {});
    if (client.ws.readyState !== WebSocket.OPEN) return;
    send(client.ws, 'snapshot', { positions: snapshot.positions });
    client.release();
  }

  const refuse = (ws: WebSocket, code: number, reason: string, message: string): void => {
    send(ws, 'error', { code: reason, message });
    ws.close(code, reason);
  };

  /** Sets up a socket whose key (or session) was found active before the upgrade (`ctx`); `check` looks again later. */
  async function open(ws: WebSocket, check: () => Promise<KeyCheck>, ctx: KeyContext): Promise<void> {
    // frames sent before the socket is set up wait for it
    const early: (string | null)[] = [];
    let onFrame = (text: string | null): void => void early.push(text);
    ws.on('message', (data, isBinary) => onFrame(isBinary ? null : data.toString()));
    let gone = false;
    ws.once('close', () => (gone = true));
    const client = new StreamClient(ws, ctx, `${podId}.${++counter}`, check);
    const slot = { accountId: ctx.accountId, socketId: client.socketId };
    const cap = ctx.plan.limits.websocketSockets;
    const claim = await slots.claim(slot, cap, clock.now());
    if (!claim.ok)
      return refuse(
        ws,
        CLOSE_CODES.tooManySockets,
        'too_many_sockets',
        `at most ${cap} streams per account, across its keys: close one first`,
      );
    const recycle = setTimeout(() => ws.close(CLOSE_CODES.recycled, 'recycled: reconnect'), push.streamMaxAgeMs);
    const leave = (): void => {
      clearTimeout(recycle);
      hub.remove(client);
      slots.release([slot]).catch((error: unknown) => logger.warn({ err: error }, 'stream: slot not released'));
    };
    if (gone) return leave();
    ws.once('close', leave);
    ws.on('pong', () => (client.alive = true));
    onFrame = (text) => handleClientMessage(client, text, clock.now());
    for (const text of early.splice(0)) onFrame(text);
    send(ws, 'welcome', { channels: [...client.channels], tick_ms: push.streamTickMs, account: ctx.book });
    await hub.add(client);
    if (gone) return;
    // a revoke between the first look and the subscription went unheard: the second look sees it
    await refresh(client);
  }

  /** The key of an upgrade, looked up before any socket exists: refused with an HTTP error, or accepted with its context. */
  async function admit(req: IncomingMessage, socket: Duplex, check: () => Promise<KeyCheck>): Promise<KeyContext | null> {
    // between the upgrade event and handleUpgrade nothing listens for the connection's errors:
    // a reset while the key is looked up would be unhandled
    const dropped = (): void => void socket.destroy();
    socket.on('error', dropped);
    try {
      const checked = await check();
      if ('context' in checked) return checked.context;
      // a key sent and refused costs the address, as over HTTP; no key at all (or a session's refusal) is not a guess
      const guessed = checked.code === 'bad_api_key' || checked.code === 'revoked_key';
      const overBudget = guessed ? await deps.chargeRefusedKey(req) : null;
      const refusal = overBudget ?? new AppError(checked.code, REFUSED_KEY_MESSAGES[checked.code]);
      refuseUpgrade(socket, refusal, clock.now());
      // one line per refused upgrade, as per closed stream (the key in its URL is redacted as it is written)
      logger.info({ url: req.url, status: refusal.status, code: refusal.code }, 'stream refused');
    } catch (error) {
      if (!isRedisUnreachable(error)) logger.error({ err: error }, 'stream: key lookup failed');
      refuseUpgrade(socket, isRedisUnreachable(error) ? redisUnavailable() : new AppError('internal', 'internal error'), clock.now());
    } finally {
      socket.off('error', dropped);
    }
    return null;
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://stream');
    if (url.pathname !== STREAM_PATH || closing) {
      endUpgrade(socket, closing ? 503 : 404);
      return;
    }
    const key = streamKey(url);
    // without a key, a site page's session cookie; else the key check (which refuses a missing key)
    const check = (key === null ? deps.siteSession?.(req, url) : null) ?? (() => checkKey(deps.apiKeys, key));
    admit(req, socket, check)
      .then((ctx) => {
        if (ctx !== null) accept(req, socket, head, check, ctx);
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
      sockets.add(ws);
      wsOpenSockets.inc();
      const opened = clock.now();
      // one line per stream, like the request log's per request (the key in its URL is redacted as it is written)
      ws.once('close', (code, reason) => {
        sockets.delete(ws);
        wsOpenSockets.dec();
        logger.info({ url: req.url, code, reason: reason.toString(), ms: clock.now() - opened }, 'stream closed');
      });
      // a bad frame (too large, malformed) closes that socket (1009, 1002); unheard, the error would end the process
      ws.on('error', (error) => logger.debug({ err: error }, 'stream: socket error'));
      open(ws, check, ctx).catch((error: unknown) => {
        logger.error({ err: error }, 'stream: connection setup failed');
        ws.close(CLOSE_CODES.internal, 'internal error');
      });
    });
  }

  // heard before the first tick, so it finds the prices published since
  ticks.start().catch((error: unknown) => logger.warn({ err: error }, 'stream: price ticks not heard yet'));
  ticker.start();
  // the books that may hold positions (their symbols not read yet, or some open)
  deps.connectedBookSweep.start(() =>
    hub.groups().flatMap((group) => (group.symbols === null || group.symbols.length > 0 ? [group.ref] : [])),
  );

  return {
    close: async () => {
      closing = true;
      await Promise.all([ticker.stop(), deps.connectedBookSweep.stop()]);
      const clients = hub.clients();
      for (const ws of sockets) ws.close(CLOSE_CODES.goingAway, 'server shutting down');
      await slots.release(clients.map((c) => ({ accountId: c.ref.accountId, socketId: c.socketId }))).catch(() => undefined);
      // a client that does not finish the closing handshake soon is cut off, so shutdown is not held up
      await new Promise((resolve) => setTimeout(resolve, sockets.size > 0 ? 500 : 0));
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await Promise.all([hub.close(), ticks.close()]);
    },
  };
}
