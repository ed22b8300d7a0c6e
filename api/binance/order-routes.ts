/**
 * Binance USDⓈ-M orders (SIGNED), netted one-way onto the engine's isolated positions: MARKET fills at once; LIMIT (and a
 * STOP_MARKET that opens) rests as the engine's limit (stop) entry; a reduce-only STOP_MARKET, TAKE_PROFIT_MARKET or
 * TRAILING_STOP_MARKET sets the position's stop, target or trailing stop. DELETE cancels a resting entry or clears a level.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/core/clock.js';
import { AppError } from '../../shared/core/errors.js';
import { pairOf } from '../../shared/binance/account-shapes.js';
import type { BookOrders } from '../../shared/binance/book-orders.js';
import type { LeverageStore } from '../../shared/binance/leverage-store.js';
import type { OrderAnswers } from '../../shared/binance/order-answers.js';
import { decimal } from '../../shared/binance/market-shapes.js';
import { planEntry, planLevel, planOrder, type OrderIntent, type OrderPlan, type RefusalReason } from '../../shared/binance/order-plan.js';
import {
  closingOrderId,
  filledOrder,
  increaseOrderId,
  LEVELS,
  orderShape,
  parseLevelId,
  restingOrder,
  type FilledOrder,
  type Level,
} from '../../shared/binance/order-shapes.js';
import type { Side } from '../../shared/engine/side.js';
import type { MarketService } from '../../shared/market/market-service.js';
import { BUSY_RETRY_AFTER_S } from '../../shared/paper/change-gate.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { refOf } from '../../shared/paper/positions/position-service.js';
import type { TradingServices } from '../../shared/paper/trading-services.js';
import { validateInput } from '../routing/validate.js';
import type { BinanceRoute } from './binance-route.js';
import { orderBody, orderRefQuery, symbolQuery } from './schemas.js';

export interface OrderRouteDeps {
  clock: Clock;
  market: MarketService;
  trading: TradingServices;
  leverage: LeverageStore;
  answers: OrderAnswers;
  book: BookOrders;
}

export interface OrderBody {
  symbol: string;
  side: 'BUY' | 'SELL';
  type: string;
  quantity?: number;
  price?: number;
  stopPrice?: number;
  callbackRate?: number;
  activationPrice?: number;
  timeInForce?: string;
  reduceOnly: 'true' | 'false';
  closePosition: 'true' | 'false';
  newClientOrderId?: string;
}

export type Answer = Record<string, unknown>;

type FlipPlan = Extract<OrderPlan, { kind: 'flip' }>;

/** What every MARKET answer carries besides its fill. */
type FilledBase = Omit<FilledOrder, 'orderId' | 'quantity' | 'avgPrice'>;

const missing = (name: string): AppError =>
  new AppError('missing_param', `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`, { param: name });

const REFUSALS: Record<RefusalReason, () => AppError> = {
  reduce_only_rejected: () => new AppError('reduce_only_rejected', 'ReduceOnly Order is rejected.'),
  add_unsupported: () =>
    new AppError('netting_unsupported', 'A resting order that adds to an open position is not supported: add to it with a MARKET order.'),
  several_positions: () =>
    new AppError('netting_unsupported', 'This symbol holds several positions (opened through /api/bot): close them there first.'),
  quantity_required: () => missing('quantity'),
  partial_level: () =>
    new AppError(
      'netting_unsupported',
      "A stop or take-profit here closes the whole position: send the position's quantity or closePosition=true.",
    ),
  resting_reduce: () =>
    new AppError(
      'netting_unsupported',
      'A resting order that reduces a position is not supported: use STOP_MARKET or TAKE_PROFIT_MARKET with reduceOnly, or MARKET.',
    ),
};

/** How many times a MARKET order is netted again onto a symbol whose position closed under it, before it answers busy. */
const NETTING_ATTEMPTS = 3;

/** What a MARKET order meets when the symbol's position changed between its read and its write. */
const NET_AGAIN: ReadonlySet<string> = new Set(['already_closed', 'position_not_found', 'symbol_held']);

const netBusy = (symbol: string): AppError =>
  new AppError('busy', `the ${symbol} position kept changing under other orders; send the order again in ${BUSY_RETRY_AFTER_S} s`, {
    retry_after: BUSY_RETRY_AFTER_S,
  });

/** The order types whose stopPrice sets a level of the position, and which level. */
const LEVEL_OF: Record<string, Level> = { STOP_MARKET: 'sl', TAKE_PROFIT_MARKET: 'tp', TRAILING_STOP_MARKET: 'trail' };

/** What the order routes of both APIs (/order and the Algo Order API's /algoOrder) do. */
export interface OrderActions {
  /** Places an order (or answers its first answer again, by newClientOrderId), remembered under its client id. */
  place(auth: KeyContext, body: OrderBody): Promise<Answer>;
  /** Cancels one resting entry or clears one level; -2011 for anything not resting. */
  cancel(auth: KeyContext, orderId: string): Promise<Answer>;
  /** The orderId an orderId or client id names, or -2013. */
  orderIdOf(auth: KeyContext, ref: { orderId?: string; origClientOrderId?: string }): Promise<string>;
  /** Cancels every open order of the symbol that `which` picks. */
  cancelAll(auth: KeyContext, symbol: string, which: (order: Answer) => boolean): Promise<void>;
}

export function orderActions({ clock, market, trading, leverage, answers, book }: OrderRouteDeps): OrderActions {
  const held = async (auth: KeyContext, symbol: string) =>
    (await trading.reads.snapshot(auth)).positions.filter((p) => p.status === 'open' && pairOf(p) === symbol);
  const intentOf = (body: OrderBody): OrderIntent => ({
    side: body.side,
    reduceOnly: body.reduceOnly === 'true',
    closePosition: body.closePosition === 'true',
    ...(body.quantity === undefined ? {} : { quantity: body.quantity }),
  });
  const leverageOf = async (auth: KeyContext, symbol: string): Promise<number> =>
    (await leverage.get(auth.accountId, auth.book, [symbol])).get(symbol) ?? 1;

  /** A MARKET order in the direction of the symbol's position: the engine's increase adds it (at the symbol's leverage). */
  const placeIncrease = async (auth: KeyContext, symbol: string, id: string, quantity: number, base: FilledBase): Promise<Answer> => {
    const lev = await leverageOf(auth, symbol);
    const added = await trading.increases.increase(auth, { id, qty: quantity, leverage: lev, client_order_id: base.clientOrderId });
    return filledOrder({ ...base, orderId: increaseOrderId(id, added.v), quantity: added.added.qty, avgPrice: added.added.price });
  };

  const placeMarket = async (auth: KeyContext, symbol: string, body: OrderBody, clientOrderId: string, attempt = 1): Promise<Answer> => {
    const positions = await held(auth, symbol);
    const intent = intentOf(body);
    // a retry of an open that went through: the engine answers it from its client_order_id
    const retried = positions.some((p) => p.client_order_id === clientOrderId);
    const plan = retried ? { kind: 'open' as const, side: positions[0].side, quantity: body.quantity ?? 0 } : planOrder(intent, positions);
    const base: FilledBase = {
      symbol,
      clientOrderId,
      side: body.side,
      reduceOnly: intent.reduceOnly,
      closePosition: intent.closePosition,
      time: clock.now(),
    };
    if (plan.kind === 'refuse') throw REFUSALS[plan.reason]();
    // the position read closed since (the order nets onto what the symbol holds now: nothing, it opens; one another
    // order just opened, it adds to that), or another order opened one first (it adds to that one), as Binance's would
    const netAgain = (error: unknown): Promise<Answer> => {
      if (!(error instanceof AppError && NET_AGAIN.has(error.code))) throw error;
      if (attempt >= NETTING_ATTEMPTS) throw netBusy(symbol);
      return placeMarket(auth, symbol, body, clientOrderId, attempt + 1);
    };
    if (plan.kind === 'increase') return placeIncrease(auth, symbol, plan.id, plan.quantity, base).catch(netAgain);
    if (plan.kind === 'open') return placeOpen(auth, symbol, plan, base).catch(netAgain);
    if (plan.kind === 'flip') return placeFlip(auth, symbol, plan, body.quantity ?? 0, base).catch(netAgain);
    const closed = (await trading.closes.close(auth, { id: plan.id, pct: plan.pct, symbol, client_order_id: clientOrderId })).closed;
    return filledOrder({ ...base, orderId: closingOrderId(closed), quantity: closed.qty, avgPrice: closed.exit_price ?? closed.entry });
  };

  /**
   * An order past the opposite position (one-way flip through zero): the whole position closes (the close script, once
   * per client id), then the remainder opens on the other side (the open script, once per client id: their idempotency
   * records are apart). One FILLED answer: the whole quantity at the average of both fills. When the open is refused
   * after the close went through (margin, the book's caps, another order that opened the symbol in between: one-way's
   * symbol_held), the order answers what filled, EXPIRED with the close's quantity, never an error.
   */
  const placeFlip = async (auth: KeyContext, symbol: string, plan: FlipPlan, quantity: number, base: FilledBase): Promise<Answer> => {
    const close = { id: plan.id, pct: 100, symbol, client_order_id: base.clientOrderId };
    const closed = (await trading.closes.close(auth, close)).closed;
    const closedAt = closed.exit_price ?? closed.entry;
    const opened = await placeOpen(auth, symbol, plan, base).then(
      (answer) => ({ qty: Number(answer.executedQty), price: Number(answer.avgPrice), orderId: String(answer.orderId) }),
      () => null,
    );
    if (opened === null) {
      const filled = filledOrder({ ...base, orderId: closingOrderId(closed), quantity: closed.qty, avgPrice: closedAt });
      return { ...filled, status: 'EXPIRED', origQty: decimal(quantity) };
    }
    const total = closed.qty + opened.qty;
    const avgPrice = (closed.qty * closedAt + opened.qty * opened.price) / total;
    return filledOrder({ ...base, orderId: opened.orderId, quantity: total, avgPrice });
  };

  const placeOpen = async (auth: KeyContext, symbol: string, plan: { side: Side; quantity: number }, base: FilledBase): Promise<Answer> => {
    const [price, lev] = await Promise.all([market.quote(symbol), leverageOf(auth, symbol)]);
    const opened = await trading.positions.open(
      auth,
      { symbol, side: plan.side, leverage: lev, margin_usd: (plan.quantity * price.price) / lev, client_order_id: base.clientOrderId },
      { oneWay: true },
    );
    if (!('position' in opened) || 'dry_run' in opened) throw new Error('a market open answered without a position');
    const p = opened.position;
    return filledOrder({ ...base, orderId: p.id, quantity: p.qty, avgPrice: p.entry });
  };

  /** A LIMIT (the engine's limit entry at price) or an opening STOP_MARKET (its stop entry at stopPrice). */
  const placeResting = async (auth: KeyContext, symbol: string, body: OrderBody, clientOrderId: string): Promise<Answer> => {
    const type = body.type === 'LIMIT' ? 'limit' : 'stop';
    const level = type === 'limit' ? body.price : body.stopPrice;
    if (level === undefined) throw missing(type === 'limit' ? 'price' : 'stopPrice');
    const plan = planEntry(intentOf(body), await held(auth, symbol));
    if (plan.kind === 'refuse') throw REFUSALS[plan.reason]();
    const lev = await leverageOf(auth, symbol);
    const placed = await trading.positions.open(auth, {
      symbol,
      side: plan.side,
      leverage: lev,
      margin_usd: (plan.quantity * level) / lev,
      type,
      limit_price: level,
      client_order_id: clientOrderId,
    });
    if (!('order' in placed) || 'dry_run' in placed) throw new Error('a resting entry answered without its order');
    return orderShape(restingOrder(placed.order));
  };

  /** A reduce-only conditional order: the open position's stop (sl), target (tp) or trailing stop (trail). */
  const placeLevel = async (auth: KeyContext, symbol: string, body: OrderBody, level: Level): Promise<Answer> => {
    if (level === 'trail' && body.callbackRate === undefined) throw missing('callbackRate');
    if (level !== 'trail' && body.stopPrice === undefined) throw missing('stopPrice');
    if (body.activationPrice !== undefined)
      throw new AppError('order_type_unsupported', 'activationPrice is not supported: a trailing stop here trails from the entry.');
    const plan = planLevel(intentOf(body), await held(auth, symbol));
    if (plan.kind === 'refuse') throw REFUSALS[plan.reason]();
    const change = level === 'trail' ? { trail_pct: body.callbackRate } : { [level]: body.stopPrice };
    await trading.positions.sltp(auth, { id: plan.id, ...change });
    const answer = await book.byId(refOf(auth), `${plan.id}${LEVELS[level].suffix}`);
    if (!answer) throw new Error('a level just set is not found');
    return answer;
  };

  const place = (auth: KeyContext, symbol: string, body: OrderBody, clientOrderId: string): Promise<Answer> => {
    if (body.type === 'MARKET') return placeMarket(auth, symbol, body, clientOrderId);
    if (body.type === 'LIMIT') {
      if (body.timeInForce === 'GTX')
        throw new AppError('post_only_unsupported', 'Post Only (GTX) is not supported: every fill here pays the taker rate.');
      if (body.timeInForce !== undefined && body.timeInForce !== 'GTC')
        throw new AppError('time_in_force_unsupported', 'Invalid timeInForce.');
      return placeResting(auth, symbol, body, clientOrderId);
    }
    const level = LEVEL_OF[body.type];
    if (level === undefined) throw new AppError('order_type_unsupported', 'Invalid orderType.');
    if (body.reduceOnly === 'true' || body.closePosition === 'true') return placeLevel(auth, symbol, body, level);
    if (body.type === 'STOP_MARKET') return placeResting(auth, symbol, body, clientOrderId);
    throw new AppError('order_type_unsupported', `${body.type} needs reduceOnly or closePosition: it sets an open position's exit here.`);
  };

  const orderIdOf = async (auth: KeyContext, ref: { orderId?: string; origClientOrderId?: string }): Promise<string> => {
    if (ref.orderId !== undefined) return ref.orderId;
    const found = await book.byClientId(refOf(auth), ref.origClientOrderId ?? '');
    if (!found) throw new AppError('unknown_order', 'Order does not exist.');
    return String(found.orderId);
  };

  const cancel = async (auth: KeyContext, orderId: string): Promise<Answer> => {
    const level = parseLevelId(orderId);
    const current = await book.byId(refOf(auth), orderId);
    if (!current || current.status !== 'NEW') throw new AppError('cancel_rejected', 'Unknown order sent.');
    if (level) {
      await trading.positions.sltp(auth, { id: level.positionId, [level.level === 'trail' ? 'trail_pct' : level.level]: null });
      return { ...current, status: 'CANCELED', updateTime: clock.now() };
    }
    return orderShape(restingOrder((await trading.orders.cancel(auth, { order_id: orderId })).order));
  };

  return {
    place: async (auth, body) => {
      const clientOrderId = body.newClientOrderId ?? `pd-${randomUUID().replaceAll('-', '').slice(0, 22)}`;
      if (body.newClientOrderId !== undefined) {
        const prior = await answers.get(auth.accountId, auth.book, clientOrderId);
        if (prior) return prior;
      }
      const answer = await place(auth, await market.resolveSymbol(body.symbol), body, clientOrderId);
      const named = { ...answer, clientOrderId };
      await answers.remember(auth.accountId, auth.book, clientOrderId, named, clock.now());
      return named;
    },
    cancel,
    orderIdOf,
    cancelAll: async (auth, symbol, which) => {
      const open = await book.open(refOf(auth), await market.resolveSymbol(symbol));
      // one at a time: a position's levels change through its one compare-and-set
      for (const order of open.filter(which)) await cancel(auth, String(order.orderId));
    },
  };
}

export function orderRoutes(deps: OrderRouteDeps, actions: OrderActions): BinanceRoute[] {
  return [
    {
      method: 'post',
      path: '/v1/order',
      signed: true,
      handle: ({ auth, params }) => actions.place(auth, validateInput<OrderBody>(orderBody, params)),
    },
    {
      method: 'delete',
      path: '/v1/order',
      signed: true,
      handle: async ({ auth, params }) => {
        const query = validateInput<{ symbol: string; orderId?: string; origClientOrderId?: string }>(orderRefQuery, params);
        await deps.market.resolveSymbol(query.symbol);
        return actions.cancel(auth, await actions.orderIdOf(auth, query));
      },
    },
    {
      method: 'delete',
      path: '/v1/allOpenOrders',
      signed: true,
      handle: async ({ auth, params }) => {
        const { symbol } = validateInput<{ symbol: string }>(symbolQuery, params);
        await actions.cancelAll(auth, symbol, () => true);
        return { code: 200, msg: 'The operation of cancel all open order is done.' };
      },
    },
  ];
}
