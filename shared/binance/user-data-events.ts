/**
 * The Binance USDⓈ-M user-data stream's events from the account channel's messages (shared/push/push-event.ts): the
 * same per-account events the native stream and the webhooks carry. Pure.
 *
 * - ORDER_TRADE_UPDATE: a position's open is its MARKET order's fill (orderId the position's id); its close the
 *   closing order's (`<id>-C`, or the level that fired: `-SL` STOP_MARKET, `-TP` TAKE_PROFIT_MARKET, `-TRAIL`
 *   TRAILING_STOP_MARKET; a liquidation a LIQUIDATION order `autoclose-<id>`), with the close leg's commission and
 *   the realized gross P&L; a resting entry placed, filled, cancelled or expired is that order's NEW, TRADE, CANCELED
 *   or EXPIRED.
 * - ACCOUNT_UPDATE (reason ORDER): after an open or a close, the USDT wallet and the symbol's net position, read once
 *   the event is heard (userDataPlan says which symbols; accountUpdate shapes them). The engine charges funding only at
 *   a close, so there is no FUNDING_FEE update: the close's ORDER update carries it in `bc` (the wallet's change other
 *   than P&L and commission).
 * - listenKeyExpired: the listenKey expired or was closed; the socket closes after it.
 */
import type { Order } from '../paper/orders/order-types.js';
import type { MoneyFields } from '../paper/positions/position-reads.js';
import type { PositionView } from '../paper/positions/position-view.js';
import type { ChannelMessage, ChannelOrder } from '../push/push-event.js';
import { pairOf, type NetPosition } from './account-shapes.js';
import { decimal } from './market-shapes.js';
import { LEVELS, positionFills, restingOrder, type Level, type OrderFields } from './order-shapes.js';

/** What Binance says happened to the order: x of ORDER_TRADE_UPDATE (CALCULATED: a liquidation's fill). */
export type ExecutionType = 'NEW' | 'TRADE' | 'CANCELED' | 'EXPIRED' | 'CALCULATED';

/** One ORDER_TRADE_UPDATE before it is shaped: the order after the event and what the event did. */
export interface Execution {
  order: OrderFields;
  exec: ExecutionType;
  lastQty: number;
  lastPrice: number;
  commission: number;
  realized: number;
  /** The fill's id (Account Trade List's), 0 for no fill. */
  tradeId: string | 0;
  time: number;
}

const usd = (value: number): string => decimal(value, 8);

export function orderTradeUpdate(x: Execution, now: number): Record<string, unknown> {
  const o = x.order;
  return {
    e: 'ORDER_TRADE_UPDATE',
    E: now,
    T: x.time,
    o: {
      s: o.symbol,
      c: o.clientOrderId,
      S: o.side,
      o: o.type,
      f: 'GTC',
      q: decimal(o.origQty),
      p: decimal(o.price),
      ap: decimal(o.avgPrice),
      sp: decimal(o.stopPrice),
      x: x.exec,
      X: o.status,
      i: o.orderId,
      l: decimal(x.lastQty),
      z: decimal(o.executedQty),
      L: decimal(x.lastPrice),
      N: 'USDT',
      n: usd(x.commission),
      T: x.time,
      t: x.tradeId,
      b: '0',
      a: '0',
      m: false,
      R: o.reduceOnly,
      wt: 'CONTRACT_PRICE',
      ot: o.type,
      ps: 'BOTH',
      cp: o.closePosition,
      ...(o.priceRate === undefined ? {} : { AP: '0', cr: decimal(o.priceRate) }),
      rp: usd(x.realized),
      pP: false,
      si: 0,
      ss: 0,
      V: 'NONE',
      pm: 'NONE',
      gtd: 0,
    },
  };
}

/** A position's view with its pair as symbol (views show the ticker, BTC). */
const withPair = (p: PositionView): PositionView => ({ ...p, symbol: pairOf(p) });

/** The MARKET order that opened a position, filled. */
export function openExecution(view: PositionView): Execution {
  const p = withPair(view);
  const [fill] = positionFills(p);
  return {
    order: {
      orderId: p.id,
      symbol: p.symbol,
      clientOrderId: p.client_order_id ?? p.id,
      side: fill.side,
      type: 'MARKET',
      status: 'FILLED',
      price: 0,
      stopPrice: 0,
      origQty: p.qty,
      executedQty: p.qty,
      avgPrice: p.entry,
      reduceOnly: false,
      closePosition: false,
      time: p.opened_ts,
      updateTime: p.opened_ts,
    },
    exec: 'TRADE',
    lastQty: p.qty,
    lastPrice: p.entry,
    commission: fill.commission,
    realized: 0,
    tradeId: fill.id,
    time: p.opened_ts,
  };
}

const levelOfReason = (reason: string | undefined): Level | undefined =>
  (Object.keys(LEVELS) as Level[]).find((level) => LEVELS[level].reason === reason);

/**
 * The order that closed a position (or a part), filled: its level's when one fired, a LIQUIDATION when liquidated,
 * else a MARKET close. `clientOrderId` is the newClientOrderId it was placed with, when the dialect placed it.
 */
export function closeExecution(view: PositionView, clientOrderId: string | undefined): Execution {
  const p = withPair(view);
  const fills = positionFills(p);
  const close = fills[fills.length - 1];
  const level = levelOfReason(p.close_reason);
  const liquidated = p.close_reason === 'liquidation';
  const time = p.closed_ts ?? p.opened_ts;
  const stopPrice = level === 'tp' ? (p.tp ?? 0) : level === undefined ? 0 : (p.sl ?? 0);
  return {
    order: {
      orderId: close.orderId,
      symbol: p.symbol,
      clientOrderId: clientOrderId ?? (liquidated ? `autoclose-${p.id}` : close.orderId),
      side: close.side,
      type: liquidated ? 'LIQUIDATION' : level === undefined ? 'MARKET' : LEVELS[level].type,
      status: 'FILLED',
      price: 0,
      stopPrice,
      origQty: p.qty,
      executedQty: p.qty,
      avgPrice: close.price,
      reduceOnly: true,
      closePosition: level !== undefined,
      time,
      updateTime: time,
      ...(level === 'trail' && p.trail_pct !== undefined ? { priceRate: p.trail_pct } : {}),
    },
    exec: liquidated ? 'CALCULATED' : 'TRADE',
    lastQty: p.qty,
    lastPrice: close.price,
    commission: close.commission,
    realized: close.realizedPnl,
    tradeId: close.id,
    time,
  };
}

const EXEC_OF: Record<ChannelOrder['event'], ExecutionType> = {
  'order.placed': 'NEW',
  'order.filled': 'TRADE',
  'order.cancelled': 'CANCELED',
  'order.expired': 'EXPIRED',
};

/** A resting entry placed, filled, cancelled or expired (a fill refused by the book's cap or one-way mode: EXPIRED). */
export function restingExecution(item: ChannelOrder): Execution {
  const view = item.order as unknown as Order & { position?: PositionView };
  const fields = restingOrder(view);
  const time = view.done_ts ?? view.placed_ts;
  const exec = view.status === 'rejected' ? 'EXPIRED' : EXEC_OF[item.event];
  const order: OrderFields = { ...fields, status: view.status === 'rejected' ? 'EXPIRED' : fields.status };
  const position = item.event === 'order.filled' ? view.position : undefined;
  if (position === undefined) return { order, exec, lastQty: 0, lastPrice: 0, commission: 0, realized: 0, tradeId: 0, time };
  // the fill's own quantity and price: the position it opened
  const filled = { ...order, executedQty: position.qty, avgPrice: position.entry };
  return {
    order: filled,
    exec,
    lastQty: position.qty,
    lastPrice: position.entry,
    commission: position.fee_open_usd,
    realized: 0,
    tradeId: `${position.id}-O`,
    time,
  };
}

/** What one channel message becomes on the user-data stream, before the reads it needs. */
export interface UserDataPlan {
  executions: Execution[];
  /** The closing orders whose newClientOrderId is looked up (the dialect's MARKET closes), by their orderId. */
  closingOrderIds: string[];
  /** The pairs whose position changed: one ACCOUNT_UPDATE carries them, read after the event. */
  symbols: string[];
  /** The funding the message's closes settled, USD (positive: paid): the wallet's change besides P&L and commission. */
  fundingUsd: number;
}

/**
 * The events of one channel message of the socket's book. `filledByOrder` carries, from one message to the next, the
 * positions a resting entry's fill opened: their open is that order's TRADE already, not a MARKET order of their own.
 */
export function userDataPlan(message: ChannelMessage, filledByOrder: Set<string>): UserDataPlan {
  const plan: UserDataPlan = { executions: [], closingOrderIds: [], symbols: [], fundingUsd: 0 };
  for (const item of message.orders ?? []) {
    const execution = restingExecution(item);
    const positionId = (item.order as { position_id?: string }).position_id;
    if (item.event === 'order.filled' && positionId !== undefined) filledByOrder.add(positionId);
    plan.executions.push(execution);
  }
  for (const m of message.messages) {
    if (m.type !== 'position') continue;
    const { event, position } = m.data as { event: string; position: PositionView };
    if (event === 'updated') continue;
    if (event === 'opened' && !filledByOrder.delete(position.id)) plan.executions.push(openExecution(position));
    if (event === 'closed') {
      const execution = closeExecution(position, undefined);
      plan.executions.push(execution);
      if (position.close_reason !== 'liquidation') plan.closingOrderIds.push(execution.order.orderId);
      plan.fundingUsd += position.funding_usd ?? 0;
    }
    const pair = pairOf(position);
    if (!plan.symbols.includes(pair)) plan.symbols.push(pair);
  }
  return plan;
}

/** The executions with the newClientOrderIds the dialect's closes were placed with. */
export function namedExecutions(plan: UserDataPlan, clientIds: ReadonlyMap<string, string>): Execution[] {
  return plan.executions.map((x) => {
    const named = clientIds.get(x.order.orderId);
    return named === undefined ? x : { ...x, order: { ...x.order, clientOrderId: named } };
  });
}

/** A symbol's net position on ACCOUNT_UPDATE: none left is amount 0. */
function positionRow(symbol: string, net: NetPosition | undefined): Record<string, unknown> {
  return {
    s: symbol,
    pa: decimal(net?.amount ?? 0),
    ep: decimal(net?.entry ?? 0),
    bep: decimal(net?.entry ?? 0),
    // the realized P&L per symbol is not kept: the wallet carries it
    cr: '0',
    up: usd(net?.unrealized ?? 0),
    mt: 'isolated',
    iw: usd(net?.margin ?? 0),
    ps: 'BOTH',
    ma: 'USDT',
  };
}

/**
 * ACCOUNT_UPDATE after an order: the USDT wallet (realized balance) and the symbols' net positions as read now;
 * `fundingUsd` the funding its closes settled (positive: paid), the wallet's change besides P&L and commission.
 */
export function accountUpdate(
  money: MoneyFields,
  symbols: readonly string[],
  net: readonly NetPosition[],
  time: number,
  now: number,
  fundingUsd = 0,
): Record<string, unknown> {
  return {
    e: 'ACCOUNT_UPDATE',
    E: now,
    T: time,
    a: {
      m: 'ORDER',
      // bc: the change other than P&L and commission: the funding settled at a close (no deposits or transfers here)
      B: [{ a: 'USDT', wb: usd(money.balance_usd), cw: '0', bc: usd(fundingUsd === 0 ? 0 : -fundingUsd) }],
      P: symbols.map((symbol) =>
        positionRow(
          symbol,
          net.find((n) => n.symbol === symbol),
        ),
      ),
    },
  };
}

/** The last message a listenKey's socket gets before it closes. */
export function listenKeyExpired(listenKey: string, now: number): Record<string, unknown> {
  return { e: 'listenKeyExpired', E: now, listenKey };
}
