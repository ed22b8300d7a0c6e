/**
 * Binance USDⓈ-M's Algo Order API (SIGNED), where Binance takes conditional orders since December 2025 (and ccxt sends
 * them): New, Query, Cancel Algo Order, the open ones, all of them, and cancel all. The same orders as /order's
 * STOP_MARKET, TAKE_PROFIT_MARKET and TRAILING_STOP_MARKET (order-routes.ts), in the Algo API's names and shape.
 */
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import type { BinanceOrder, BookOrders } from '../../shared/binance/book-orders.js';
import { algoShape, isConditional } from '../../shared/binance/order-shapes.js';
import type { MarketService } from '../../shared/market/market-service.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { refOf } from '../../shared/paper/positions/position-service.js';
import { validateInput } from '../routing/validate.js';
import type { BinanceParams, BinanceRoute } from './binance-route.js';
import type { OrderActions, OrderBody } from './order-routes.js';
import { algoOrderBody, algoRefQuery, allAlgoOrdersQuery, optionalSymbolQuery, symbolQuery } from './schemas.js';

export interface AlgoRouteDeps {
  clock: Clock;
  market: MarketService;
  book: BookOrders;
}

/** Binance's default window of allAlgoOrders without a startTime: the last 7 days. */
const DEFAULT_WINDOW_MS = 7 * 86_400_000;

interface AlgoRef {
  symbol?: string;
  algoId?: string;
  clientAlgoId?: string;
}

export function algoRoutes({ clock, market, book }: AlgoRouteDeps, actions: OrderActions): BinanceRoute[] {
  /** The conditional order an algoId or clientAlgoId names, or -2013. */
  const one = async (auth: KeyContext, params: BinanceParams): Promise<BinanceOrder> => {
    const query = validateInput<AlgoRef>(algoRefQuery, params);
    const ref = refOf(auth);
    const found = query.algoId !== undefined ? await book.byId(ref, query.algoId) : await book.byClientId(ref, query.clientAlgoId ?? '');
    if (!found || !isConditional(found)) throw new AppError('unknown_order', 'Order does not exist.');
    return found;
  };

  return [
    {
      method: 'post',
      path: '/v1/algoOrder',
      signed: true,
      handle: async ({ auth, params }) => {
        const body = validateInput<OrderBody>(algoOrderBody, params);
        if (body.type !== 'STOP_MARKET' && body.type !== 'TAKE_PROFIT_MARKET' && body.type !== 'TRAILING_STOP_MARKET')
          throw new AppError('order_type_unsupported', 'Invalid orderType: STOP_MARKET, TAKE_PROFIT_MARKET or TRAILING_STOP_MARKET.');
        return algoShape(await actions.place(auth, body));
      },
    },
    { method: 'get', path: '/v1/algoOrder', signed: true, handle: async ({ auth, params }) => algoShape(await one(auth, params)) },
    {
      method: 'delete',
      path: '/v1/algoOrder',
      signed: true,
      handle: async ({ auth, params }) => {
        const found = await one(auth, params);
        await actions.cancel(auth, String(found.orderId));
        return { algoId: found.orderId, clientAlgoId: found.clientOrderId, code: '200', msg: 'success' };
      },
    },
    {
      method: 'get',
      path: '/v1/openAlgoOrders',
      signed: true,
      handle: async ({ auth, params }) => {
        const { symbol } = validateInput<{ symbol?: string }>(optionalSymbolQuery, params);
        const open = await book.open(refOf(auth), symbol === undefined ? undefined : await market.resolveSymbol(symbol));
        return open.filter(isConditional).map(algoShape);
      },
    },
    {
      method: 'get',
      path: '/v1/allAlgoOrders',
      signed: true,
      handle: async ({ auth, params }) => {
        const q = validateInput<{ symbol: string; startTime?: number; endTime?: number; limit: number }>(allAlgoOrdersQuery, params);
        const all = await book.all(refOf(auth), await market.resolveSymbol(q.symbol), q.startTime ?? clock.now() - DEFAULT_WINDOW_MS);
        return all
          .filter((o) => isConditional(o) && (q.endTime === undefined || Number(o.time) <= q.endTime))
          .slice(-q.limit)
          .map(algoShape);
      },
    },
    {
      method: 'delete',
      path: '/v1/algoOpenOrders',
      signed: true,
      handle: async ({ auth, params }) => {
        const { symbol } = validateInput<{ symbol: string }>(symbolQuery, params);
        await actions.cancelAll(auth, symbol, isConditional);
        return { code: 200, msg: 'The operation of cancel all open order is done.' };
      },
    },
  ];
}
