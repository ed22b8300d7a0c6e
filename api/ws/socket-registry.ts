/**
 * The pod's open sockets. Each holds a slot under its account's cap (SocketSlots: shared across keys and pods), pushed
 * forward on the heartbeat and freed when it closes; it is recycled after STREAM_MAX_AGE_MS, counted in the open-sockets
 * gauge while open, and one line is logged when it closes.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { Clock } from '../../shared/core/clock.js';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/core/logger.js';
import { wsOpenSockets } from '../../shared/metrics/metrics.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { STREAM_CLOSE_CODES as CLOSE_CODES } from '../../shared/push/socket-notices.js';
import type { SocketSlots } from '../../shared/push/socket-slots.js';
import type { ChannelFanout } from './channel-fanout.js';
import { StreamClient, type KeyCheck } from './stream-client.js';
import { closeWithError, handleClientMessage, sendMessage } from './stream-messages.js';

export interface SocketRegistryDeps {
  slots: SocketSlots;
  fanout: ChannelFanout;
  push: Config['push'];
  clock: Clock;
  logger: Logger;
}

export class SocketRegistry {
  private readonly sockets = new Set<WebSocket>();
  private readonly podId = `${process.pid}.${randomBytes(4).toString('hex')}`;
  private counter = 0;

  constructor(private readonly deps: SocketRegistryDeps) {}

  /** A socket just upgraded: counted until it closes, then logged as one line, like the request log's per request. */
  track(ws: WebSocket, req: IncomingMessage): void {
    const { clock, logger } = this.deps;
    this.sockets.add(ws);
    wsOpenSockets.inc();
    const opened = clock.now();
    // the key in its URL is redacted as it is written
    ws.once('close', (code, reason) => {
      this.sockets.delete(ws);
      wsOpenSockets.dec();
      logger.info({ url: req.url, code, reason: reason.toString(), ms: clock.now() - opened }, 'stream closed');
    });
  }

  /** Sets up a socket whose key (or session) was found active before the upgrade (`ctx`); `check` looks again later. */
  async open(ws: WebSocket, check: () => Promise<KeyCheck>, ctx: KeyContext): Promise<void> {
    const { slots, fanout, push, clock, logger } = this.deps;
    // frames sent before the socket is set up wait for it
    const early: (string | null)[] = [];
    let onFrame = (text: string | null): void => void early.push(text);
    ws.on('message', (data, isBinary) => onFrame(isBinary ? null : data.toString()));
    let gone = false;
    ws.once('close', () => (gone = true));
    const client = new StreamClient(ws, ctx, `${this.podId}.${++this.counter}`, check);
    const slot = { accountId: ctx.accountId, socketId: client.socketId };
    const cap = ctx.plan.limits.websocketSockets;
    const claim = await slots.claim(slot, cap, clock.now());
    if (!claim.ok) {
      const message = `at most ${cap} streams per account, across its keys: close one first`;
      return closeWithError(ws, clock.now(), CLOSE_CODES.tooManySockets, 'too_many_sockets', message);
    }
    const recycle = setTimeout(() => ws.close(CLOSE_CODES.recycled, 'recycled: reconnect'), push.streamMaxAgeMs);
    const leave = (): void => {
      clearTimeout(recycle);
      fanout.hub.remove(client);
      slots.release([slot]).catch((error: unknown) => logger.warn({ err: error }, 'stream: slot not released'));
    };
    if (gone) return leave();
    ws.once('close', leave);
    ws.on('pong', () => (client.alive = true));
    onFrame = (text) => handleClientMessage(client, text, clock.now());
    for (const text of early.splice(0)) onFrame(text);
    sendMessage(ws, 'welcome', { channels: [...client.channels], tick_ms: push.streamTickMs, account: ctx.book }, clock.now());
    await fanout.hub.add(client);
    if (gone) return;
    // a revoke between the first look and the subscription went unheard: the second look sees it
    await fanout.refresh(client);
  }

  /** A socket that stopped answering pings is cut off; the others' slots are pushed forward, well within their TTL. */
  heartbeat(): void {
    const { slots, fanout, clock, logger } = this.deps;
    const clients = fanout.hub.clients();
    for (const client of clients) {
      if (!client.alive) client.ws.terminate();
      client.alive = false;
      client.ws.ping();
    }
    slots.renew(clients.map(slotOf), clock.now()).catch((error: unknown) => logger.warn({ err: error }, 'stream: slots not renewed'));
  }

  /** Closes every socket (1001) and frees their slots; a socket that does not finish the closing handshake soon is cut off. */
  async closeAll(): Promise<void> {
    const clients = this.deps.fanout.hub.clients();
    for (const ws of this.sockets) ws.close(CLOSE_CODES.goingAway, 'server shutting down');
    await this.deps.slots.release(clients.map(slotOf)).catch(() => undefined);
    // so shutdown is not held up
    await new Promise((resolve) => setTimeout(resolve, this.sockets.size > 0 ? 500 : 0));
    for (const ws of this.sockets) ws.terminate();
  }
}

const slotOf = (client: StreamClient): { accountId: string; socketId: string } => ({
  accountId: client.ref.accountId,
  socketId: client.socketId,
});
