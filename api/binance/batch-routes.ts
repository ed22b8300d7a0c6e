/**
 * Binance USDⓈ-M batch orders (SIGNED): Place Multiple Orders (`batchOrders`, at most 5), Modify Multiple Orders
 * (`PUT batchOrders`, at most 5) and Cancel Multiple Orders (`orderIdList` or `origClientOrderIdList`, at most 10),
 * through the single order's actions (order-routes.ts, modify-route.ts). Each
 * order is answered in its place with its order or its own `{code, msg}`, as Binance answers; the orders are placed
 * one after another, so one that nets against an earlier one of the batch sees it.
 */
import { AppError, isAppError } from '../../shared/core/errors.js';
import { binanceError } from '../../shared/binance/binance-errors.js';
import { parseIdList, parseOrderList } from '../../shared/binance/batch-params.js';
import type { MarketService } from '../../shared/market/market-service.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { validateInput } from '../routing/validate.js';
import type { BinanceRoute } from './binance-route.js';
import type { ModifyAction } from './modify-route.js';
import type { Answer, OrderActions, OrderBody } from './order-routes.js';
import { batchCancelQuery, orderBody } from './schemas.js';

/** Binance's largest batches: 5 new orders, 10 cancels. */
export const BATCH_PLACE_MAX = 5;
export const BATCH_CANCEL_MAX = 10;

/**
 * Each step's answer, or its refusal as Binance's `{code, msg}`. An error that is not a refusal (a fault of ours) fails
 * the whole call, so it is logged; the orders before it were kept under their newClientOrderId, so a retry of the
 * same batch answers them again instead of placing them twice.
 */
async function eachInTurn<T>(items: readonly T[], step: (item: T) => Promise<Answer>): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const item of items) {
    try {
      out.push(await step(item));
    } catch (error) {
      if (!isAppError(error)) throw error;
      out.push({ ...binanceError(error).body });
    }
  }
  return out;
}

const tooMany = (param: string, max: number): AppError =>
  new AppError('invalid_param', `Data sent for parameter '${param}' is not valid: at most ${max} orders.`, { param, max });

/** The orders of a `batchOrders` parameter, at most `BATCH_PLACE_MAX` (new orders or modifies alike). */
function batchList(raw: string | undefined): Record<string, string>[] {
  const orders = parseOrderList(raw);
  if ('error' in orders) throw new AppError(orders.error, orders.message, { param: 'batchOrders' });
  if (orders.list.length > BATCH_PLACE_MAX) throw tooMany('batchOrders', BATCH_PLACE_MAX);
  return orders.list;
}

export function batchRoutes({ market }: { market: MarketService }, actions: OrderActions, modify: ModifyAction): BinanceRoute[] {
  const cancelOne = async (auth: KeyContext, ref: { orderId?: string; origClientOrderId?: string }): Promise<Answer> =>
    actions.cancel(auth, await actions.orderIdOf(auth, ref));
  return [
    {
      method: 'post',
      path: '/v1/batchOrders',
      signed: true,
      handle: ({ auth, params }) =>
        eachInTurn(batchList(params.batchOrders), (raw) => actions.place(auth, validateInput<OrderBody>(orderBody, raw))),
    },
    {
      // each entry modified as PUT order modifies one, answered in its place (a refused one with its own code)
      method: 'put',
      path: '/v1/batchOrders',
      signed: true,
      handle: ({ auth, params }) => eachInTurn(batchList(params.batchOrders), (raw) => modify(auth, raw)),
    },
    {
      method: 'delete',
      path: '/v1/batchOrders',
      signed: true,
      handle: async ({ auth, params }) => {
        const query = validateInput<{ symbol: string; orderIdList?: string; origClientOrderIdList?: string }>(batchCancelQuery, params);
        await market.resolveSymbol(query.symbol);
        const param = query.orderIdList !== undefined ? 'orderIdList' : 'origClientOrderIdList';
        const ids = parseIdList(query[param] ?? '');
        if (ids === null) throw new AppError('invalid_param', `Data sent for parameter '${param}' is not valid.`, { param });
        if (ids.length > BATCH_CANCEL_MAX) throw tooMany(param, BATCH_CANCEL_MAX);
        const refs = ids.map((id) => (param === 'orderIdList' ? { orderId: id } : { origClientOrderId: id }));
        return eachInTurn(refs, (ref) => cancelOne(auth, ref));
      },
    },
  ];
}
