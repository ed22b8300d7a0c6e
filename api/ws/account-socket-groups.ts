/**
 * A pod's sockets grouped by account and book, the one shape both streams keep (the native stream's StreamHub, the Binance
 * user stream's UserStreamHub). The pod hears an account's channel while it holds a socket of that account, and hands each
 * relayed entry to its book's group once and in order: an id it has already passed is a relay's repeat and is dropped.
 */
import type { Logger } from '../../shared/core/logger.js';
import type { AccountEvents } from '../../shared/push/account-events.js';
import { compareStreamIds, type ChannelMessage } from '../../shared/push/push-event.js';

/** What a group holds besides its own state: the book's sockets on this pod. */
export interface SocketGroup<S> {
  sockets: Set<S>;
}

interface AccountEntry<G> {
  books: Map<string, G>;
  /** The last entry id handed on. */
  lastId: string | null;
  subscribed: Promise<unknown>;
}

export interface AccountSocketGroupsDeps<S, G extends SocketGroup<S>> {
  events: AccountEvents;
  logger: Logger;
  /** Names the stream in its log lines ('stream', 'user stream'). */
  label: string;
  /** The account and book a socket belongs to. */
  bookOf(socket: S): { accountId: string; book: string };
  /** A book's group, made for its first socket (which is added to it afterwards). */
  newGroup(socket: S): G;
  /** A relayed entry of a book with sockets here, once and in order. */
  onEntry(group: G, message: ChannelMessage): void;
}

export class AccountSocketGroups<S, G extends SocketGroup<S>> {
  private readonly accounts = new Map<string, AccountEntry<G>>();

  constructor(private readonly deps: AccountSocketGroupsDeps<S, G>) {
    deps.events.listen((accountId, message) => this.forward(accountId, message));
  }

  /** Adds a socket; resolves once the pod hears its account's channel (entries from then on reach it). */
  async add(socket: S): Promise<void> {
    const { accountId, book } = this.deps.bookOf(socket);
    let entry = this.accounts.get(accountId);
    if (!entry) {
      entry = { books: new Map(), lastId: null, subscribed: this.deps.events.subscribe(accountId) };
      this.accounts.set(accountId, entry);
    }
    let group = entry.books.get(book);
    if (!group) {
      group = this.deps.newGroup(socket);
      entry.books.set(book, group);
    }
    group.sockets.add(socket);
    await entry.subscribed;
  }

  remove(socket: S): void {
    const { accountId, book } = this.deps.bookOf(socket);
    const entry = this.accounts.get(accountId);
    const group = entry?.books.get(book);
    if (!entry || !group?.sockets.delete(socket)) return;
    if (group.sockets.size === 0) entry.books.delete(book);
    if (entry.books.size > 0) return;
    this.accounts.delete(accountId);
    this.deps.events
      .unsubscribe(accountId)
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, `${this.deps.label}: unsubscribe failed`));
  }

  /** Every book with sockets on this pod. */
  groups(): G[] {
    return [...this.accounts.values()].flatMap((entry) => [...entry.books.values()]);
  }

  sockets(): S[] {
    return this.groups().flatMap((group) => [...group.sockets]);
  }

  /** The pod's sockets of one account (none when it holds none). */
  socketsOf(accountId: string): S[] {
    return [...(this.accounts.get(accountId)?.books.values() ?? [])].flatMap((group) => [...group.sockets]);
  }

  /** After a gap in the channels: the next entry of each account is taken whatever its id. */
  forgetOrder(): void {
    for (const entry of this.accounts.values()) entry.lastId = null;
  }

  close(): Promise<void> {
    return this.deps.events.close();
  }

  private forward(accountId: string, message: ChannelMessage): void {
    const entry = this.accounts.get(accountId);
    if (!entry) return;
    if (entry.lastId !== null && compareStreamIds(message.id, entry.lastId) <= 0) return;
    entry.lastId = message.id;
    const group = entry.books.get(message.book);
    if (group) this.deps.onEntry(group, message);
  }
}
