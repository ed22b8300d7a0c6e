/**
 * An API pod's side of the account channels: one subscriber connection, subscribed to the
 * accounts the pod holds sockets of, handing on each message parsed: the relay's entries, and
 * the notices that cut sockets (socket-notices.ts).
 */
import type { RedisClient } from '../core/redis-client.js';
import { closeRedis } from '../redis/connection.js';
import { keys } from '../redis/keys.js';
import type { ChannelMessage } from './push-event.js';
import { isSocketNotice, type SocketNotice } from './socket-notices.js';

export type AccountEventHandler = (accountId: string, message: ChannelMessage) => void;
export type SocketNoticeHandler = (accountId: string, notice: SocketNotice) => void;

export class AccountEvents {
  private readonly accounts = new Map<string, string>();
  private handler: AccountEventHandler | undefined;
  private noticeHandler: SocketNoticeHandler | undefined;
  private gapHandler: (() => void) | undefined;
  private lost = false;

  /** Takes a connection of its own (it is put in subscriber mode) and closes it on close(). */
  constructor(
    private readonly subscriber: RedisClient,
    onError: (error: unknown) => void,
  ) {
    subscriber.on('message', (channel: string, raw: string) => {
      const accountId = this.accounts.get(channel);
      if (accountId === undefined || !this.handler) return;
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch (error) {
        onError(error);
        return;
      }
      if (isSocketNotice(message)) this.noticeHandler?.(accountId, message);
      else this.handler(accountId, message as ChannelMessage);
    });
    // what was published while the connection was down never arrives: once the channels are heard
    // again, the gap handler lets the pod re-send what it would have missed
    subscriber.on('close', () => (this.lost = true));
    subscriber.on('ready', () => {
      if (!this.lost) return;
      this.lost = false;
      const channels = [...this.accounts.keys()];
      (channels.length > 0 ? this.subscriber.subscribe(...channels) : Promise.resolve()).then(() => this.gapHandler?.(), onError);
    });
  }

  /** Called after the connection came back (and its channels are heard again): events may have been missed. */
  onGap(handler: () => void): void {
    this.gapHandler = handler;
  }

  listen(handler: AccountEventHandler): void {
    this.handler = handler;
  }

  listenNotices(handler: SocketNoticeHandler): void {
    this.noticeHandler = handler;
  }

  /** Resolves once the subscription is in place: messages published from then on arrive. */
  subscribe(accountId: string): Promise<unknown> {
    const channel = keys.accountEvents(accountId);
    this.accounts.set(channel, accountId);
    return this.subscriber.subscribe(channel);
  }

  /** Commands on the connection run in order: a later subscribe of the same account wins. */
  unsubscribe(accountId: string): Promise<unknown> {
    const channel = keys.accountEvents(accountId);
    this.accounts.delete(channel);
    return this.subscriber.unsubscribe(channel);
  }

  async close(): Promise<void> {
    await closeRedis(this.subscriber);
  }
}
