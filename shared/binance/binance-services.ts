/** The Binance USDⓈ-M dialect's stores, built once per domain (shared/domain.ts): the REST routes and the user stream share them. */
import type { Clock } from '../core/clock.js';
import type { RedisClient } from '../core/redis-client.js';
import type { OrderStore } from '../paper/orders/order-store.js';
import type { PositionStore } from '../paper/positions/position-store.js';
import { BookOrders } from './book-orders.js';
import { LeverageStore } from './leverage-store.js';
import { ListenKeyStore } from './listen-key-store.js';
import { OrderAnswers } from './order-answers.js';

export interface BinanceServices {
  /** Each symbol's leverage per book (the dialect's own setting: the engine takes it per order). */
  leverage: LeverageStore;
  /** The MARKET answers the dialect kept, by order id. */
  answers: OrderAnswers;
  /** A book's orders as Binance shows them: resting entries, positions' levels and kept answers. */
  book: BookOrders;
  /** The user-data stream's listenKeys. */
  listenKeys: ListenKeyStore;
}

export interface BinanceDeps {
  redis: RedisClient;
  positions: PositionStore;
  orders: OrderStore;
  clock: Clock;
}

export function createBinanceServices({ redis, positions, orders, clock }: BinanceDeps): BinanceServices {
  const answers = new OrderAnswers(redis);
  return {
    leverage: new LeverageStore(redis),
    answers,
    book: new BookOrders({ positions, orders, answers, clock }),
    listenKeys: new ListenKeyStore(redis),
  };
}
