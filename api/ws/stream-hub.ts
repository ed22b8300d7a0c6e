/**
 * A pod's streams grouped by account and book (AccountSocketGroups): each relayed entry goes to the sockets of the
 * entry's book, once and in order.
 */
import type { Logger } from '../../shared/core/logger.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import type { AccountEvents } from '../../shared/push/account-events.js';
import type { ChannelMessage } from '../../shared/push/push-event.js';
import { noticeNames, type SocketNotice } from '../../shared/push/socket-notices.js';
import { AccountSocketGroups } from './account-socket-groups.js';
import type { StreamClient } from './stream-client.js';

export interface BookGroup {
  ref: BookRef;
  sockets: Set<StreamClient>;
  /** The symbols of the book's open positions, for the price ticks; null until read (or after a position event). */
  symbols: string[] | null;
  /** Position events seen: a read of the symbols that started before the last one is stale. */
  changes: number;
}

export class StreamHub {
  private readonly books: AccountSocketGroups<StreamClient, BookGroup>;

  constructor(
    private readonly events: AccountEvents,
    logger: Logger,
  ) {
    this.books = new AccountSocketGroups<StreamClient, BookGroup>({
      events,
      logger,
      label: 'stream',
      bookOf: (client) => client.ref,
      newGroup: (client) => ({ ref: client.ref, sockets: new Set(), symbols: null, changes: 0 }),
      onEntry: (group, message) => this.forward(group, message),
    });
  }

  /** Adds a socket; resolves once the pod hears its account's channel (events from then on reach it). */
  add(client: StreamClient): Promise<void> {
    return this.books.add(client);
  }

  remove(client: StreamClient): void {
    this.books.remove(client);
  }

  /** Every book with sockets on this pod. */
  groups(): BookGroup[] {
    return this.books.groups();
  }

  clients(): StreamClient[] {
    return this.books.sockets();
  }

  /** A notice to cut sockets (a revoked key, a lowered cap): the pod's sockets it names, none of any other account. */
  onNotice(handler: (clients: StreamClient[], notice: SocketNotice) => void): void {
    this.events.listenNotices((accountId, notice) => {
      const named = this.books
        .socketsOf(accountId)
        .filter((client) => noticeNames(notice, { keyId: client.ctx.keyId, socketId: client.socketId }));
      if (named.length > 0) handler(named, notice);
    });
  }

  /** After a gap in the account channels (the pod's subscriber reconnected): every socket of the pod. */
  onGap(handler: (clients: StreamClient[]) => void): void {
    this.events.onGap(() => {
      this.books.forgetOrder();
      handler(this.clients());
    });
  }

  close(): Promise<void> {
    return this.books.close();
  }

  private forward(group: BookGroup, message: ChannelMessage): void {
    group.symbols = null;
    group.changes += 1;
    for (const event of message.messages) {
      const text = JSON.stringify(event);
      for (const client of group.sockets) client.position(text, message.id);
    }
  }
}
