/**
 * The account channels to the pod's sockets: a StreamHub over the pod's AccountEvents forwards each relayed event to its
 * book's sockets. A notice (a revoked key, a lowered cap) cuts the sockets it names; after a gap in the channels every
 * socket has its key looked up again and gets a fresh snapshot, since what was published meanwhile never arrives.
 */
import { WebSocket } from 'ws';
import type { Clock } from '../../shared/core/clock.js';
import type { Logger } from '../../shared/core/logger.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import type { AccountEvents } from '../../shared/push/account-events.js';
import { STREAM_CLOSE_CODES as CLOSE_CODES } from '../../shared/push/socket-notices.js';
import type { StreamClient } from './stream-client.js';
import { StreamHub } from './stream-hub.js';
import { closeWithError, sendMessage } from './stream-messages.js';
import { KEY_HINT } from './upgrade-auth.js';

/** What a socket cut by a notice is told, by the notice's reason. */
const NOTICE_MESSAGES: Record<string, string> = {
  revoked_key: 'this key was revoked',
  too_many_sockets: "the account's plan now allows fewer streams: this one was closed",
  login_required: 'the site session was signed out',
};

export interface ChannelFanoutDeps {
  events: AccountEvents;
  trading: TradingServices;
  clock: Clock;
  logger: Logger;
}

export class ChannelFanout {
  readonly hub: StreamHub;

  constructor(private readonly deps: ChannelFanoutDeps) {
    const { events, clock, logger } = deps;
    this.hub = new StreamHub(events, logger);
    // events published while the pod's subscriber was reconnecting are lost to it: each socket gets a
    // fresh snapshot instead, so what it shows is right again (and its key, the notices it missed)
    this.hub.onGap((clients) => {
      for (const client of clients) {
        client.hold();
        this.refresh(client).catch((error: unknown) => {
          logger.warn({ err: error }, 'stream: snapshot after a gap failed');
          client.ws.close(CLOSE_CODES.internal, 'internal error');
        });
      }
    });
    this.hub.onNotice((clients, notice) => {
      for (const client of clients)
        closeWithError(client.ws, clock.now(), notice.code, notice.reason, NOTICE_MESSAGES[notice.reason] ?? 'closed by the service');
    });
  }

  /** The key again, then a snapshot: what a socket needs once its account's notices and events may have been missed. */
  async refresh(client: StreamClient): Promise<void> {
    const { clock, trading } = this.deps;
    const checked = await client.checkKey();
    if ('code' in checked) return closeWithError(client.ws, clock.now(), CLOSE_CODES.keyRefused, checked.code, KEY_HINT);
    const snapshot = await trading.reads.snapshot(client.ctx);
    if (client.ws.readyState !== WebSocket.OPEN) return;
    sendMessage(client.ws, 'snapshot', { positions: snapshot.positions }, clock.now());
    // what the snapshot already holds is not sent again when its event is relayed late
    client.release(snapshot.outboxId);
  }
}
