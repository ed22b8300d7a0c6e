/**
 * The engine's orders, positions and trades in Binance USDⓈ-M shapes: an order (Query Order), a fill (Account Trade
 * List) and an income row (Get Income History). Pure.
 *
 * Orders come from three places: a MARKET order is a fill the engine made at once (its answer is kept); a LIMIT, or a
 * STOP_MARKET that opens, is a resting entry of the engine; a reduce-only STOP_MARKET, TAKE_PROFIT_MARKET or
 * TRAILING_STOP_MARKET is a level of the open position (its stop, target, trailing stop), its orderId the position's id
 * and the level's suffix. A MARKET open's orderId is its position's id; a MARKET close's, the closed part's id and `-C`;
 * a MARKET order that added to a position's, the position's id, `-ADD` and the version the increase made.
 */
import type { Side } from '../engine/side.js';
import { canonicalSymbol } from '../market/canonical-symbol.js';
import type { Order, OrderStatus } from '../paper/orders/order-types.js';
import { legsOf } from '../paper/positions/position-legs.js';
import type { Position } from '../paper/positions/position-types.js';
import { decimal } from './market-shapes.js';

/** LIQUIDATION: the order a liquidation closes a position with, on the user-data stream. */
export type BinanceOrderType = 'MARKET' | 'LIMIT' | 'STOP_MARKET' | 'TAKE_PROFIT_MARKET' | 'TRAILING_STOP_MARKET' | 'LIQUIDATION';
export type BinanceStatus = 'NEW' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';
export type BinanceSide = 'BUY' | 'SELL';

export interface OrderFields {
  orderId: string;
  symbol: string;
  clientOrderId: string;
  side: BinanceSide;
  type: BinanceOrderType;
  status: BinanceStatus;
  /** A LIMIT's price, else 0. */
  price: number;
  /** A stop's or target's trigger, else 0. */
  stopPrice: number;
  origQty: number;
  executedQty: number;
  avgPrice: number;
  reduceOnly: boolean;
  closePosition: boolean;
  time: number;
  updateTime: number;
  /** A trailing stop's callback, percent. */
  priceRate?: number;
}

export function orderShape(o: OrderFields): Record<string, unknown> {
  return {
    orderId: o.orderId,
    symbol: o.symbol,
    status: o.status,
    clientOrderId: o.clientOrderId,
    price: decimal(o.price),
    avgPrice: decimal(o.avgPrice),
    origQty: decimal(o.origQty),
    executedQty: decimal(o.executedQty),
    cumQty: decimal(o.executedQty),
    cumQuote: decimal(o.executedQty * o.avgPrice, 8),
    timeInForce: 'GTC',
    type: o.type,
    origType: o.type,
    reduceOnly: o.reduceOnly,
    closePosition: o.closePosition,
    side: o.side,
    positionSide: 'BOTH',
    stopPrice: decimal(o.stopPrice),
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    ...(o.priceRate === undefined ? {} : { priceRate: decimal(o.priceRate), activatePrice: '0' }),
    time: o.time,
    updateTime: o.updateTime,
  };
}

export interface FilledOrder {
  orderId: string;
  symbol: string;
  clientOrderId: string;
  side: BinanceSide;
  quantity: number;
  avgPrice: number;
  reduceOnly: boolean;
  closePosition: boolean;
  time: number;
}

/** A MARKET order as Binance answers it once filled (orderId: the engine's position id, or its closed part's). */
export function filledOrder(o: FilledOrder): Record<string, unknown> {
  return orderShape({
    ...o,
    type: 'MARKET',
    status: 'FILLED',
    price: 0,
    stopPrice: 0,
    origQty: o.quantity,
    executedQty: o.quantity,
    updateTime: o.time,
  });
}

export const buySell = (side: Side, closing = false): BinanceSide => ((side === 'long') !== closing ? 'BUY' : 'SELL');

const STATUSES: Record<OrderStatus, BinanceStatus> = {
  open: 'NEW',
  filled: 'FILLED',
  cancelled: 'CANCELED',
  expired: 'EXPIRED',
  rejected: 'REJECTED',
};

/**
 * A resting entry of the engine (limit: LIMIT; stop: a STOP_MARKET that opens), quantity its notional at its level. Its
 * symbol is the pair: the engine stores the pair but answers and relays the order with its coin (BTC).
 */
export function restingOrder(o: Order): OrderFields {
  const qty = (o.margin_usd * o.leverage) / o.limit_price;
  const filled = o.status === 'filled';
  return {
    orderId: o.order_id,
    symbol: canonicalSymbol(o.symbol) ?? o.symbol,
    clientOrderId: o.client_order_id ?? o.order_id,
    side: buySell(o.side),
    type: o.type === 'limit' ? 'LIMIT' : 'STOP_MARKET',
    status: STATUSES[o.status],
    price: o.type === 'limit' ? o.limit_price : 0,
    stopPrice: o.type === 'stop' ? o.limit_price : 0,
    origQty: qty,
    executedQty: filled ? qty : 0,
    avgPrice: filled ? o.limit_price : 0,
    reduceOnly: false,
    closePosition: false,
    time: o.placed_ts,
    updateTime: o.done_ts ?? o.modified_ts ?? o.placed_ts,
  };
}

/** A position's levels as Binance's conditional orders: the suffix of their orderId, their type and close reason. */
export const LEVELS = {
  sl: { suffix: '-SL', type: 'STOP_MARKET', reason: 'stop_loss' },
  tp: { suffix: '-TP', type: 'TAKE_PROFIT_MARKET', reason: 'take_profit' },
  trail: { suffix: '-TRAIL', type: 'TRAILING_STOP_MARKET', reason: 'trailing_stop' },
} as const;
export type Level = keyof typeof LEVELS;

/** The position and level an orderId names, when it names one. */
export function parseLevelId(orderId: string): { positionId: string; level: Level } | null {
  for (const level of Object.keys(LEVELS) as Level[]) {
    if (orderId.endsWith(LEVELS[level].suffix)) return { positionId: orderId.slice(0, -LEVELS[level].suffix.length), level };
  }
  return null;
}

/**
 * A level of a position as a closePosition order: NEW while set on the open position, FILLED once it closed the
 * position (at its exit), CANCELED once cleared or when the position closed otherwise.
 */
export function levelOrder(p: Position, level: Level, clientOrderId: string | undefined, now: number): OrderFields {
  const orderId = `${p.id}${LEVELS[level].suffix}`;
  const fired = p.status === 'closed' && p.close_reason === LEVELS[level].reason;
  const set = p.status === 'open' && (level === 'trail' ? p.trail_pct !== null : p[level] !== null);
  return {
    orderId,
    symbol: p.symbol,
    clientOrderId: clientOrderId ?? orderId,
    side: buySell(p.side, true),
    type: LEVELS[level].type,
    status: fired ? 'FILLED' : set ? 'NEW' : 'CANCELED',
    price: 0,
    stopPrice: level === 'trail' ? 0 : (p[level] ?? 0),
    origQty: p.qty,
    executedQty: fired ? p.qty : 0,
    avgPrice: fired ? (p.exit ?? 0) : 0,
    reduceOnly: true,
    closePosition: true,
    time: p.levels_ts ?? p.opened_ts,
    updateTime: p.closed_ts ?? p.levels_ts ?? now,
    ...(level === 'trail' && p.trail_pct !== null ? { priceRate: p.trail_pct } : {}),
  };
}

/** The levels an open position holds, as orders. */
export function levelOrders(p: Position, clientIds: ReadonlyMap<string, string>, now: number): OrderFields[] {
  const held: Level[] = [];
  if (p.sl !== null) held.push('sl');
  if (p.tp !== null) held.push('tp');
  if (p.trail_pct !== null) held.push('trail');
  return held.map((level) => levelOrder(p, level, clientIds.get(`${p.id}${LEVELS[level].suffix}`), now));
}

/** A MARKET order that added to a position (the engine's increase): the position's id and the version it made. */
export function increaseOrderId(positionId: string, version: number): string {
  return `${positionId}-ADD${version}`;
}

/** The order that closed a position (or part): its level's when one fired, else `-C` (a MARKET close, or one through /api/bot). */
export function closingOrderId(p: Pick<Position, 'id' | 'close_reason'>): string {
  const level = (Object.keys(LEVELS) as Level[]).find((l) => LEVELS[l].reason === p.close_reason);
  return `${p.id}${level === undefined ? '-C' : LEVELS[level].suffix}`;
}

/** What a position's fills are read from: the stored position, or its view as the stream carries it (with the pair as symbol). */
export type FillSource = Pick<
  Position,
  | 'id'
  | 'symbol'
  | 'side'
  | 'status'
  | 'entry'
  | 'qty'
  | 'margin'
  | 'fee_open_usd'
  | 'opened_ts'
  | 'exit'
  | 'closed_ts'
  | 'pnl_usd'
  | 'fees_usd'
  | 'funding_usd'
  | 'close_reason'
  | 'parent_id'
  | 'legs'
>;

/** What a closed position (or closed part) paid and earned: gross P&L, fees and funding that made its pnl_usd. */
function settled(p: FillSource): { gross: number; fees: number; funding: number } {
  const fees = p.fees_usd ?? 0;
  const funding = p.funding_usd ?? 0;
  const pnl = p.pnl_usd ?? 0;
  // pnl_usd is the net in cents, floored at -margin: a floored loss shows as the gross that makes it, else the price move
  const floored = pnl <= -p.margin;
  return { gross: floored ? pnl + fees + funding : (p.side === 'long' ? 1 : -1) * ((p.exit ?? p.entry) - p.entry) * p.qty, fees, funding };
}

/** A fill of Account Trade List: the open leg of a position, or the close of a closed one (or part). */
export interface Fill {
  id: string;
  orderId: string;
  symbol: string;
  side: BinanceSide;
  price: number;
  qty: number;
  commission: number;
  realizedPnl: number;
  time: number;
}

/**
 * The fills of a position: its open (one per leg once added to: the open, then each add, under the orderId its MARKET
 * order answered), and its close when it is closed; their commissions add up to its fees.
 */
export function positionFills(p: FillSource): Fill[] {
  const opener = p.parent_id ?? p.id;
  const { gross, fees } = settled(p);
  // a closed part carries its share of the entry fee (close-service.ts scales it), and was opened by its parent's orders
  const openFee = p.status === 'open' ? p.fee_open_usd : Math.min(fees, p.fee_open_usd);
  const opens = legsOf(p, openFee).map((leg): Fill => ({
    symbol: p.symbol,
    qty: leg.qty,
    id: leg.v === 0 ? `${p.id}-O` : `${p.id}-O-ADD${leg.v}`,
    orderId: leg.v === 0 ? opener : increaseOrderId(opener, leg.v),
    side: buySell(p.side),
    price: leg.price,
    commission: leg.fee,
    realizedPnl: 0,
    time: leg.ts,
  }));
  if (p.status === 'open') return opens;
  const close: Fill = {
    symbol: p.symbol,
    qty: p.qty,
    id: `${p.id}-C`,
    orderId: closingOrderId(p),
    side: buySell(p.side, true),
    price: p.exit ?? 0,
    commission: fees - openFee,
    realizedPnl: gross,
    time: p.closed_ts ?? p.opened_ts,
  };
  return [...opens, close];
}

export function fillShape(f: Fill): Record<string, unknown> {
  return {
    buyer: f.side === 'BUY',
    commission: decimal(f.commission, 8),
    commissionAsset: 'USDT',
    id: f.id,
    maker: false,
    orderId: f.orderId,
    price: decimal(f.price),
    qty: decimal(f.qty),
    quoteQty: decimal(f.price * f.qty, 8),
    realizedPnl: decimal(f.realizedPnl, 8),
    side: f.side,
    positionSide: 'BOTH',
    symbol: f.symbol,
    time: f.time,
  };
}

export type IncomeType = 'REALIZED_PNL' | 'COMMISSION' | 'FUNDING_FEE';

/**
 * What a closed position moved the balance by, as Binance's income rows, all at its close (the balance moves then:
 * fees and funding are settled with the P&L): gross P&L, commission paid (negative), funding paid (negative). Zero
 * rows are left out.
 */
export function positionIncome(p: Position): Record<string, unknown>[] {
  const { gross, fees, funding } = settled(p);
  const rows: [IncomeType, number][] = [
    ['REALIZED_PNL', gross],
    ['COMMISSION', -fees],
    ['FUNDING_FEE', -funding],
  ];
  return rows
    .filter(([, amount]) => amount !== 0)
    .map(([incomeType, amount]) => ({
      symbol: p.symbol,
      incomeType,
      income: decimal(amount, 8),
      asset: 'USDT',
      info: incomeType,
      time: p.closed_ts ?? p.opened_ts,
      tranId: `${p.id}-${incomeType}`,
      tradeId: incomeType === 'FUNDING_FEE' ? '' : `${p.id}-C`,
    }));
}

/** The conditional types: Binance's Algo Order API (/fapi/v1/algoOrder) places and lists these. */
export const isConditional = (order: Record<string, unknown>): boolean =>
  order.type === 'STOP_MARKET' || order.type === 'TAKE_PROFIT_MARKET' || order.type === 'TRAILING_STOP_MARKET';

const ALGO_STATUSES: Record<string, string> = {
  NEW: 'NEW',
  FILLED: 'FINISHED',
  CANCELED: 'CANCELED',
  EXPIRED: 'EXPIRED',
  REJECTED: 'REJECTED',
};

/** A conditional order (orderShape's record) as the Algo Order API shows it: algoId, clientAlgoId, triggerPrice, algoStatus. */
export function algoShape(order: Record<string, unknown>): Record<string, unknown> {
  return {
    algoId: order.orderId,
    clientAlgoId: order.clientOrderId,
    algoType: 'CONDITIONAL',
    orderType: order.type,
    symbol: order.symbol,
    side: order.side,
    positionSide: 'BOTH',
    timeInForce: 'GTC',
    quantity: order.origQty,
    algoStatus: ALGO_STATUSES[String(order.status)] ?? 'NEW',
    triggerPrice: order.stopPrice,
    price: '0',
    workingType: 'CONTRACT_PRICE',
    priceMatch: 'NONE',
    closePosition: order.closePosition,
    priceProtect: false,
    reduceOnly: order.reduceOnly,
    ...(order.priceRate === undefined ? {} : { callbackRate: order.priceRate, activatePrice: '0' }),
    actualOrderId: '',
    executedQty: order.executedQty,
    avgPrice: order.avgPrice,
    createTime: order.time,
    updateTime: order.updateTime,
    triggerTime: order.status === 'FILLED' ? order.updateTime : 0,
    goodTillDate: 0,
  };
}
