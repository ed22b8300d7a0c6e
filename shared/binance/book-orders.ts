/**
 * A book's orders as the Binance dialect sees them, read from where the engine keeps them (shared/binance/order-shapes.ts
 * says which is which): its resting entries, its positions' levels, and the MARKET answers the dialect kept. Reads only.
 */
import type { Clock } from '../core/clock.js';
import type { OrderStore } from '../paper/orders/order-store.js';
import type { BookRef } from '../paper/positions/position-types.js';
import type { PositionStore } from '../paper/positions/position-store.js';
import { ORDERS_DONE_KEPT } from '../paper/orders/order-types.js';
import type { OrderAnswers } from './order-answers.js';
import { levelOrder, levelOrders, orderShape, parseLevelId, restingOrder, type OrderFields } from './order-shapes.js';

export type BinanceOrder = Record<string, unknown>;

export interface BookOrdersDeps {
  positions: PositionStore;
  orders: OrderStore;
  answers: OrderAnswers;
  clock: Clock;
}

const timeOf = (o: BinanceOrder): number => Number(o.time ?? o.updateTime ?? 0);

export class BookOrders {
  constructor(private readonly deps: BookOrdersDeps) {}

  /** What rests: the engine's resting entries and the open positions' levels, oldest first. */
  async open(ref: BookRef, symbol?: string): Promise<BinanceOrder[]> {
    const { positions, orders, answers, clock } = this.deps;
    const [resting, held] = await Promise.all([orders.listResting(ref), positions.listOpen(ref)]);
    const open = held.map((s) => s.position).filter((p) => symbol === undefined || p.symbol === symbol);
    const levelIds = open.flatMap((p) => ['-SL', '-TP', '-TRAIL'].map((suffix) => `${p.id}${suffix}`));
    const clientIds = await answers.clientIds(ref.accountId, ref.book, levelIds);
    const rows: OrderFields[] = [
      ...resting.filter((o) => symbol === undefined || o.symbol === symbol).map(restingOrder),
      ...open.flatMap((p) => levelOrders(p, clientIds, clock.now())),
    ];
    return rows.map(orderShape).sort((a, b) => timeOf(a) - timeOf(b));
  }

  /** An order by its orderId as it stands now; null when the book has no trace of it. */
  async byId(ref: BookRef, orderId: string): Promise<BinanceOrder | null> {
    const { positions, orders, answers, clock } = this.deps;
    const level = parseLevelId(orderId);
    if (level) {
      const stored = (await positions.getOpen(ref, level.positionId)) ?? (await positions.getClosed(ref, level.positionId));
      if (!stored) return null;
      const clientId = (await answers.clientIds(ref.accountId, ref.book, [orderId])).get(orderId);
      return orderShape(levelOrder(stored.position, level.level, clientId, clock.now()));
    }
    const resting = await orders.get(ref, orderId);
    if (resting) return orderShape(restingOrder(resting.order));
    const clientId = (await answers.clientIds(ref.accountId, ref.book, [orderId])).get(orderId);
    return clientId === undefined ? null : answers.get(ref.accountId, ref.book, clientId);
  }

  /** An order by the newClientOrderId it was placed with (here or as client_order_id through /api/bot). */
  async byClientId(ref: BookRef, clientOrderId: string): Promise<BinanceOrder | null> {
    const answered = await this.deps.answers.get(ref.accountId, ref.book, clientOrderId);
    if (answered) return (await this.byId(ref, String(answered.orderId))) ?? answered;
    const resting = await this.deps.orders.findIdempotent(ref, clientOrderId);
    return resting ? orderShape(restingOrder(resting.order)) : null;
  }

  /**
   * The symbol's orders since `sinceTs`, oldest first: the dialect's answers of the day (as they stand now), what rests,
   * and the engine's last done entries (ORDERS_DONE_KEPT).
   */
  async all(ref: BookRef, symbol: string, sinceTs: number): Promise<BinanceOrder[]> {
    const { answers, orders } = this.deps;
    const [answered, open, done] = await Promise.all([
      answers.since(ref.accountId, ref.book, sinceTs),
      this.open(ref, symbol),
      orders.listRecent(ref, ORDERS_DONE_KEPT),
    ]);
    const now = await Promise.all(answered.map(async (a) => (await this.byId(ref, a.orderId)) ?? a.answer));
    const byId = new Map<string, BinanceOrder>();
    for (const o of [...now, ...done.map((d) => orderShape(restingOrder(d))), ...open]) byId.set(String(o.orderId), o);
    return [...byId.values()].filter((o) => o.symbol === symbol && timeOf(o) >= sinceTs).sort((a, b) => timeOf(a) - timeOf(b));
  }
}
