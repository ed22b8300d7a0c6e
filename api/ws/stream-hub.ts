/**
 * A pod's streams grouped by account and book. The pod listens to an account's channel while it
 * holds a socket of that account, and forwards each relayed entry to the sockets of the entry's
 * book, once and in order (an id it has already passed is a relay's repeat and is dropped).
 */
import type { Logger } from '../../shared/core/logger.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import type { AccountEvents } from '../../shared/push/account-events.js';
import { compareStreamIds, type ChannelMessage } from '../../shared/push/push-event.js';
import { noticeNames, type SocketNotice } from '../../shared/push/socket-notices.js';
import type { StreamClient } from './stream-client.js';

export interface BookGroup {
  ref: BookRef;
  clients: Set<StreamClient>;
  /** The symbols of the book's open positions, for the price ticks; null until read (or after a position event). */
  symbols: string[] | null;
  /** Position events seen: a read of the symbols that started before the last one is stale. */
  changes: number;
}

interface AccountEntry {
  books: Map<string, BookGroup>;
  /** The last entry id forwarded. */
  lastId: string | null;
  subscribed: Promise<unknown>;
}

export class StreamHub {
  private readonly accounts = new Map<string, AccountEntry>();

  constructor(
    private readonly events: AccountEvents,
    private readonly logger: Logger,
  ) {
    events.listen((accountId, message) => this.forward(accountId, message));
  }

  /** Adds a socket; resolves once the pod hears its account's channel (events from then on reach it). */
  async add(client: StreamClient): Promise<void> {
    const { accountId, book } = client.ref;
    let entry = this.accounts.get(accountId);
    if (!entry) {
      entry = { books: new Map(), lastId: null, subscribed: this.events.subscribe(accountId) };
      this.accounts.set(accountId, entry);
    }
    let group = entry.books.get(book);
    if (!group) {
      group = { ref: client.ref, clients: new Set(), symbols: null, changes: 0 };
      entry.books.set(book, group);
    }
    group.clients.add(client);
    await entry.subscribed;
  }

  remove(client: StreamClient): void {
    const { accountId, book } = client.ref;
    const entry = this.accounts.get(accountId);
    const group = entry?.books.get(book);
    if (!entry || !group?.clients.delete(client)) return;
    if (group.clients.size === 0) entry.books.delete(book);
    if (entry.books.size > 0) return;
    this.accounts.delete(accountId);
    this.events.unsubscribe(accountId).catch((error: unknown) => this.logger.warn({ err: error }, 'stream: unsubscribe failed'));
  }

  /** Every book with sockets on this pod. */
  groups(): BookGroup[] {
    return [...this.accounts.values()].flatMap((entry) => [...entry.books.values()]);
  }

  clients(): StreamClient[] {
    return this.groups().flatMap((group) => [...group.clients]);
  }

  /** A notice to cut sockets (a revoked key, a lowered cap): the pod's sockets it names, none of any other account. */
  onNotice(handler: (clients: StreamClient[], notice: SocketNotice) => void): void {
    this.events.listenNotices((accountId, notice) => {
      const books = this.accounts.get(accountId)?.books.values() ?? [];
      const named = [...books].flatMap((group) =>
        [...group.clients].filter((client) => noticeNames(notice, { keyId: client.ctx.keyId, socketId: client.socketId })),
      );
      if (named.length > 0) handler(named, notice);
    });
  }

  /** After a gap in the account channels (the pod's subscriber reconnected): every socket of the pod. */
  onGap(handler: (clients: StreamClient[]) => void): void {
    this.events.onGap(() => {
      for (const entry of this.accounts.values()) entry.lastId = null;
      handler(this.clients());
    });
  }

  close(): Promise<void> {
    return this.events.close();
  }

  private forward(accountId: string, message: ChannelMessage): void {
    const entry = this.accounts.get(accountId);
    if (!entry) return;
    if (entry.lastId !== null && compareStreamIds(message.id, entry.lastId) <= 0) return;
    entry.lastId = message.id;
    const group = entry.books.get(message.book);
    if (!group) return;
    group.symbols = null;
    group.changes += 1;
    for (const event of message.messages) {
      const text = JSON.stringify(event);
      for (const client of group.clients) client.position(text, message.id);
    }
  }
}
