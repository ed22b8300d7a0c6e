/**
 * Binance USDⓈ-M order and history reads (SIGNED): Query Order, Query Current Open Order, Current All Open Orders,
 * All Orders, Account Trade List, Income History; over the book's orders (shared/binance/book-orders.ts) and its
 * positions, open and closed within the plan's history window.
 */
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import type { BinanceOrder, BookOrders } from '../../shared/binance/book-orders.js';
import { fillShape, positionFills, positionIncome } from '../../shared/binance/order-shapes.js';
import type { MarketService } from '../../shared/market/market-service.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { refOf } from '../../shared/paper/positions/position-service.js';
import type { PositionStore } from '../../shared/paper/positions/position-store.js';
import type { Position } from '../../shared/paper/positions/position-types.js';
import { validateInput } from '../routing/validate.js';
import type { BinanceParams, BinanceRoute } from './binance-route.js';
import { allOrdersQuery, incomeQuery, optionalSymbolQuery, orderRefQuery, userTradesQuery } from './schemas.js';

export interface OrderReadDeps {
  clock: Clock;
  market: MarketService;
  book: BookOrders;
  positions: PositionStore;
}

const DAY_MS = 86_400_000;
/** Binance's default window of allOrders, userTrades and income when no startTime is sent: the last 7 days. */
const DEFAULT_WINDOW_MS = 7 * DAY_MS;
/** Closed positions read at most per history call (each gives two fills and up to three income rows). */
const CLOSED_READ_MAX = 1000;

interface Window {
  startTime?: number;
  endTime?: number;
  limit: number;
}

/** The last `limit` rows within the window, oldest first. */
function within<T>(rows: readonly T[], timeOf: (row: T) => number, w: Window): T[] {
  const inside = rows.filter(
    (r) => (w.startTime === undefined || timeOf(r) >= w.startTime) && (w.endTime === undefined || timeOf(r) <= w.endTime),
  );
  return [...inside].sort((a, b) => timeOf(a) - timeOf(b)).slice(-w.limit);
}

/** Binance's cursor: the `limit` rows from the one with this id on (fromId, orderId), else the last `limit`. */
function page<T>(rows: readonly T[], idOf: (row: T) => string, fromId: string | undefined, limit: number): T[] {
  if (fromId === undefined) return rows.slice(-limit);
  const at = rows.findIndex((r) => idOf(r) === fromId);
  return at < 0 ? [] : rows.slice(at, at + limit);
}

export function orderReadRoutes({ clock, market, book, positions }: OrderReadDeps): BinanceRoute[] {
  const one = async (auth: KeyContext, params: BinanceParams): Promise<BinanceOrder> => {
    const query = validateInput<{ symbol: string; orderId?: string; origClientOrderId?: string }>(orderRefQuery, params);
    const symbol = await market.resolveSymbol(query.symbol);
    const ref = refOf(auth);
    const found =
      query.orderId !== undefined ? await book.byId(ref, query.orderId) : await book.byClientId(ref, query.origClientOrderId ?? '');
    if (!found || found.symbol !== symbol) throw new AppError('unknown_order', 'Order does not exist.');
    return found;
  };

  /** The symbol's positions (open, and closed since `since` within the plan's window), for fills and income. */
  const history = async (auth: KeyContext, symbol: string | undefined, w: Window): Promise<Position[]> => {
    const ref = refOf(auth);
    const minTs = Math.max(w.startTime ?? clock.now() - DEFAULT_WINDOW_MS, clock.now() - auth.plan.limits.tradeHistoryDays * DAY_MS);
    const [open, closed] = await Promise.all([
      positions.listOpen(ref),
      positions.listClosed(ref, { minTs, maxTs: w.endTime === undefined ? Infinity : w.endTime + 1, limit: CLOSED_READ_MAX }),
    ]);
    return [...open.map((s) => s.position), ...closed].filter((p) => symbol === undefined || p.symbol === symbol);
  };

  return [
    { method: 'get', path: '/v1/order', signed: true, handle: ({ auth, params }) => one(auth, params) },
    {
      method: 'get',
      path: '/v1/openOrder',
      signed: true,
      handle: async ({ auth, params }) => {
        const found = await one(auth, params);
        if (found.status !== 'NEW') throw new AppError('unknown_order', 'Order does not exist.');
        return found;
      },
    },
    {
      method: 'get',
      path: '/v1/openOrders',
      signed: true,
      handle: async ({ auth, params }) => {
        const { symbol } = validateInput<{ symbol?: string }>(optionalSymbolQuery, params);
        return book.open(refOf(auth), symbol === undefined ? undefined : await market.resolveSymbol(symbol));
      },
    },
    {
      method: 'get',
      path: '/v1/allOrders',
      signed: true,
      handle: async ({ auth, params }) => {
        const q = validateInput<Window & { symbol: string; orderId?: string }>(allOrdersQuery, params);
        const symbol = await market.resolveSymbol(q.symbol);
        const all = await book.all(refOf(auth), symbol, q.startTime ?? clock.now() - DEFAULT_WINDOW_MS);
        const timeOf = (o: BinanceOrder) => Number(o.time);
        return page(within(all, timeOf, { ...q, limit: Infinity }), (o) => String(o.orderId), q.orderId, q.limit);
      },
    },
    {
      method: 'get',
      path: '/v1/userTrades',
      signed: true,
      handle: async ({ auth, params }) => {
        const q = validateInput<Window & { symbol: string; orderId?: string; fromId?: string }>(userTradesQuery, params);
        const symbol = await market.resolveSymbol(q.symbol);
        const fills = (await history(auth, symbol, q))
          .flatMap(positionFills)
          .filter((f) => q.orderId === undefined || f.orderId === q.orderId);
        const ordered = within(fills, (f) => f.time, { ...q, limit: Infinity });
        return page(ordered, (f) => f.id, q.fromId, q.limit).map(fillShape);
      },
    },
    {
      method: 'get',
      path: '/v1/income',
      signed: true,
      handle: async ({ auth, params }) => {
        const q = validateInput<Window & { symbol?: string; incomeType?: string }>(incomeQuery, params);
        const symbol = q.symbol === undefined ? undefined : await market.resolveSymbol(q.symbol);
        const closed = (await history(auth, symbol, q)).filter((p) => p.status === 'closed');
        const rows = closed.flatMap(positionIncome).filter((r) => q.incomeType === undefined || r.incomeType === q.incomeType);
        return within(rows, (r) => Number(r.time), { ...q, startTime: q.startTime ?? clock.now() - DEFAULT_WINDOW_MS });
      },
    },
  ];
}
