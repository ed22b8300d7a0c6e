/**
 * The pod's Binance user-data sockets grouped by account and book (AccountSocketGroups): each relayed entry of a book,
 * once and in order, becomes that book's events (shared/binance/user-data-events.ts). A notice naming a socket (its
 * listenKey closed, its key revoked, the account's cap lowered) ends it.
 */
import { WebSocket } from 'ws';
import type { Clock } from '../../shared/core/clock.js';
import type { Logger } from '../../shared/core/logger.js';
import { netPositions, pairOf } from '../../shared/binance/account-shapes.js';
import { LISTEN_KEY_CLOSED } from '../../shared/binance/listen-key-store.js';
import type { OrderAnswers } from '../../shared/binance/order-answers.js';
import { accountUpdate, listenKeyExpired, namedExecutions, orderTradeUpdate, userDataPlan } from '../../shared/binance/user-data-events.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import type { AccountEvents } from '../../shared/push/account-events.js';
import type { ChannelMessage } from '../../shared/push/push-event.js';
import { noticeNames } from '../../shared/push/socket-notices.js';
import { AccountSocketGroups } from '../ws/account-socket-groups.js';

/** A socket this far behind is not reading: it is cut off rather than held in memory. */
const TERMINATE_ABOVE_BYTES = 4 * 1024 * 1024;

/** One user-data socket: its listenKey's context, and whether it asked for the combined form ({stream, data}). */
export class UserSocket {
  alive = true;

  constructor(
    readonly ws: WebSocket,
    readonly listenKey: string,
    readonly combined: boolean,
    readonly ctx: KeyContext,
    /** Its slot under the account's socket cap. */
    readonly slotId: string,
    /** What a close notice names it by (listenKeySocketId). */
    readonly listenKeyId: string,
  ) {}

  send(event: Record<string, unknown>): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > TERMINATE_ABOVE_BYTES) return void this.ws.terminate();
    this.ws.send(JSON.stringify(this.combined ? { stream: this.listenKey, data: event } : event));
  }

  /** listenKeyExpired, then the close (Binance ends the stream with it). */
  expire(now: number): void {
    this.send(listenKeyExpired(this.listenKey, now));
    this.ws.close(1000, 'listenKeyExpired');
  }
}

interface BookGroup {
  ctx: KeyContext;
  sockets: Set<UserSocket>;
  /** Positions a resting entry's fill opened, whose position event is still to come (userDataPlan). */
  filledByOrder: Set<string>;
  /** The book's deliveries, one after the other, so events leave in the order of their entries. */
  chain: Promise<void>;
}

export interface UserStreamHubDeps {
  events: AccountEvents;
  trading: TradingServices;
  answers: OrderAnswers;
  clock: Clock;
  logger: Logger;
}

export class UserStreamHub {
  private readonly books: AccountSocketGroups<UserSocket, BookGroup>;

  constructor(private readonly deps: UserStreamHubDeps) {
    this.books = new AccountSocketGroups<UserSocket, BookGroup>({
      events: deps.events,
      logger: deps.logger,
      label: 'user stream',
      bookOf: (socket) => socket.ctx,
      newGroup: (socket) => ({ ctx: socket.ctx, sockets: new Set(), filledByOrder: new Set(), chain: Promise.resolve() }),
      onEntry: (group, message) => this.forward(group, message),
    });
    deps.events.listenNotices((accountId, notice) => {
      for (const socket of this.books.socketsOf(accountId)) {
        const named =
          noticeNames(notice, { keyId: socket.ctx.keyId, socketId: socket.slotId }) || notice.cut.sockets?.includes(socket.listenKeyId);
        if (!named) continue;
        if (notice.reason === LISTEN_KEY_CLOSED) socket.expire(deps.clock.now());
        else socket.ws.close(notice.code, notice.reason);
      }
    });
  }

  /** Adds a socket; resolves once the pod hears its account's channel. */
  add(socket: UserSocket): Promise<void> {
    return this.books.add(socket);
  }

  remove(socket: UserSocket): void {
    this.books.remove(socket);
  }

  sockets(): UserSocket[] {
    return this.books.sockets();
  }

  close(): Promise<void> {
    return this.books.close();
  }

  private forward(group: BookGroup, message: ChannelMessage): void {
    group.chain = group.chain
      .then(() => this.deliver(group, message))
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'user stream: events not sent'));
  }

  /** The entry's ORDER_TRADE_UPDATEs, then one ACCOUNT_UPDATE of the symbols it moved (read now), to the book's sockets. */
  private async deliver(group: BookGroup, message: ChannelMessage): Promise<void> {
    const { trading, answers, clock } = this.deps;
    const plan = userDataPlan(message, group.filledByOrder);
    if (plan.executions.length === 0 && plan.symbols.length === 0) return;
    const { accountId, book } = group.ctx;
    const clientIds =
      plan.closingOrderIds.length > 0 ? await answers.clientIds(accountId, book, plan.closingOrderIds) : new Map<string, string>();
    const now = clock.now();
    const events = namedExecutions(plan, clientIds).map((x) => orderTradeUpdate(x, now));
    if (plan.symbols.length > 0) {
      const [money, { positions }] = await Promise.all([trading.reads.balance(group.ctx), trading.reads.snapshot(group.ctx)]);
      const open = positions.filter((p) => p.status === 'open' && plan.symbols.includes(pairOf(p)));
      // the leverage setting is not part of ACCOUNT_UPDATE: any will do for the netting
      const time = plan.executions[plan.executions.length - 1]?.time ?? now;
      events.push(
        accountUpdate(
          money,
          plan.symbols,
          netPositions(open, () => 1),
          time,
          clock.now(),
          plan.fundingUsd,
        ),
      );
    }
    for (const socket of group.sockets) for (const event of events) socket.send(event);
  }
}
