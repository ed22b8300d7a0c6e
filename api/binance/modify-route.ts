/**
 * Binance USDⓈ-M Modify Order (`PUT /fapi/v1/order`, SIGNED): a resting LIMIT gets a new price and quantity. It is the
 * engine's own order change (`/modify_order`: one compare-and-set script, behind the order's change gate), so the
 * order keeps its id, its place and its client id, and a modify racing a fill or a cancel never applies to a done
 * order: it answers -2011 (done) or, after the gate's retries, -1008 (busy: send it again).
 */
import { AppError } from '../../shared/core/errors.js';
import { buySell, orderShape, parseLevelId, restingOrder } from '../../shared/binance/order-shapes.js';
import type { MarketService } from '../../shared/market/market-service.js';
import type { OrderStore } from '../../shared/paper/orders/order-store.js';
import { refOf } from '../../shared/paper/positions/position-service.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import { trimNumber } from '../../shared/engine/side.js';
import { validateInput } from '../routing/validate.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import type { BinanceParams, BinanceRoute } from './binance-route.js';
import type { Answer, OrderActions } from './order-routes.js';
import { modifyOrderBody } from './schemas.js';

export interface ModifyRouteDeps {
  market: MarketService;
  trading: TradingServices;
  orders: OrderStore;
}

interface ModifyBody {
  symbol: string;
  orderId?: string;
  origClientOrderId?: string;
  side: 'BUY' | 'SELL';
  quantity: number;
  price: number;
}

const limitOnly = (): AppError => new AppError('modify_limit_only', 'Only limit order is supported.');

/** Modifies one order as `PUT order` takes it (the batch modify runs each of its entries through it). */
export type ModifyAction = (auth: KeyContext, params: BinanceParams) => Promise<Answer>;

export function modifyAction({ market, trading, orders }: ModifyRouteDeps, actions: OrderActions): ModifyAction {
  return async (auth, params) => {
    const body = validateInput<ModifyBody>(modifyOrderBody, params);
    const symbol = await market.resolveSymbol(body.symbol);
    const orderId = await actions.orderIdOf(auth, body);
    // a position's stop, target or trailing stop is a conditional order: Binance modifies LIMIT orders only
    if (parseLevelId(orderId)) throw limitOnly();
    const stored = await orders.get(refOf(auth), orderId);
    if (!stored || stored.order.symbol !== symbol) throw new AppError('unknown_order', 'Order does not exist.');
    const o = stored.order;
    if (o.status !== 'open') throw new AppError('already_done', 'Unknown order sent.', { status: o.status });
    if (o.type !== 'limit') throw limitOnly();
    if (buySell(o.side) !== body.side)
      throw new AppError('invalid_param', "Data sent for parameter 'side' is not valid: it is not the order's side.", { param: 'side' });
    const shown = restingOrder(o);
    const margin = trimNumber((body.quantity * body.price) / o.leverage);
    if (trimNumber(body.price) === o.limit_price && Math.abs(body.quantity - shown.origQty) <= 1e-12 * body.quantity)
      throw new AppError('nothing_to_modify', 'No need to modify the order.');
    const modified = await trading.orders.modify(auth, { order_id: orderId, limit_price: body.price, margin_usd: margin });
    return orderShape(restingOrder(modified.order));
  };
}

export function modifyRoute(modify: ModifyAction): BinanceRoute {
  return { method: 'put', path: '/v1/order', signed: true, handle: ({ auth, params }) => modify(auth, params) };
}
