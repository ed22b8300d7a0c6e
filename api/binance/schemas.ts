/**
 * The Joi schemas of the Binance dialect's parameters, in Binance's names (every value arrives as a string; the signed
 * ones, timestamp, recvWindow and signature, are checked before and stripped here as unknown).
 */
import Joi from 'joi';
import { DATA_PERIODS } from '../../shared/binance/data-shapes.js';
import { KLINE_INTERVALS } from '../../shared/binance/market-shapes.js';
import type { FieldMeta } from '../routing/validate.js';

const codes = (map: FieldMeta['codes']): FieldMeta => ({ codes: map });
const symbol = Joi.string()
  .trim()
  .uppercase()
  .pattern(/^[A-Z0-9]{2,30}$/);
const ms = Joi.number().integer().min(0).max(8.64e15);

export const optionalSymbolQuery = Joi.object({ symbol });
export const symbolQuery = Joi.object({ symbol: symbol.required() });

export const klinesQuery = Joi.object({
  symbol: symbol.required(),
  interval: Joi.string()
    .valid(...Object.keys(KLINE_INTERVALS))
    .required()
    .meta(codes({ 'any.only': 'bad_interval' })),
  startTime: ms,
  endTime: ms,
  limit: Joi.number().integer().min(1).max(1000).default(500),
});

export const fundingRateQuery = Joi.object({
  symbol,
  startTime: ms,
  endTime: ms,
  limit: Joi.number().integer().min(1).max(1000).default(100),
});

export const depthQuery = Joi.object({
  symbol: symbol.required(),
  limit: Joi.number().integer().valid(5, 10, 20, 50, 100, 500, 1000).default(500),
});

export const leverageBody = Joi.object({ symbol: symbol.required(), leverage: Joi.number().integer().min(1).max(1000).required() });

export const marginTypeBody = Joi.object({
  symbol: symbol.required(),
  marginType: Joi.string().uppercase().valid('ISOLATED', 'CROSSED').required(),
});

export const dualSideBody = Joi.object({ dualSidePosition: Joi.string().lowercase().valid('true', 'false').required() });

const flag = Joi.string().lowercase().valid('true', 'false').default('false');

const orderFields = {
  symbol: symbol.required(),
  side: Joi.string().uppercase().valid('BUY', 'SELL').required(),
  type: Joi.string().uppercase().required(),
  quantity: Joi.number().greater(0).max(1e12),
  price: Joi.number().greater(0).max(1e12),
  /** TRAILING_STOP_MARKET's callback, percent (Binance: 0.1 to 10). */
  callbackRate: Joi.number().min(0.1).max(10),
  timeInForce: Joi.string().uppercase().valid('GTC', 'IOC', 'FOK', 'GTX', 'GTD'),
  reduceOnly: flag,
  closePosition: flag,
  positionSide: Joi.string().uppercase().valid('BOTH'),
};
const clientId = Joi.string().pattern(/^[.A-Z:/a-z0-9_-]{1,36}$/);
const level = Joi.number().greater(0).max(1e12);

export const orderBody = Joi.object({ ...orderFields, stopPrice: level, activationPrice: level, newClientOrderId: clientId });

/** New Algo Order's parameters, renamed to New Order's (triggerPrice: stopPrice, clientAlgoId: newClientOrderId). */
export const algoOrderBody = Joi.object({
  ...orderFields,
  algoType: Joi.string().uppercase().valid('CONDITIONAL').required(),
  stopPrice: level,
  activationPrice: level,
  newClientOrderId: clientId,
})
  .rename('triggerPrice', 'stopPrice')
  .rename('activatePrice', 'activationPrice')
  .rename('clientAlgoId', 'newClientOrderId');

const orderId = Joi.string().pattern(/^[A-Za-z0-9_-]{1,64}$/);
/** Query Order and Cancel Order: the order by orderId or origClientOrderId (one of them). */
export const orderRefQuery = Joi.object({ symbol: symbol.required(), orderId, origClientOrderId: clientId }).or(
  'orderId',
  'origClientOrderId',
);

export const allOrdersQuery = Joi.object({
  symbol: symbol.required(),
  orderId,
  startTime: ms,
  endTime: ms,
  limit: Joi.number().integer().min(1).max(1000).default(500),
});

export const userTradesQuery = Joi.object({
  symbol: symbol.required(),
  orderId,
  startTime: ms,
  endTime: ms,
  fromId: Joi.string().max(64),
  limit: Joi.number().integer().min(1).max(1000).default(500),
});

export const incomeQuery = Joi.object({
  symbol,
  incomeType: Joi.string().uppercase(),
  startTime: ms,
  endTime: ms,
  page: Joi.number().integer().min(1),
  limit: Joi.number().integer().min(1).max(1000).default(100),
});

/** Query, Cancel Algo Order: by algoId or clientAlgoId (one of them). */
export const algoRefQuery = Joi.object({ symbol, algoId: orderId, clientAlgoId: clientId }).or('algoId', 'clientAlgoId');

export const allAlgoOrdersQuery = allOrdersQuery.rename('algoId', 'orderId');

/** Cancel Multiple Orders: the symbol and a JSON list of orderIds or of client ids (ccxt sends them lowercase). */
export const batchCancelQuery = Joi.object({
  symbol: symbol.required(),
  orderIdList: Joi.string().max(2000),
  origClientOrderIdList: Joi.string().max(2000),
})
  .rename('orderidlist', 'orderIdList')
  .rename('origclientorderidlist', 'origClientOrderIdList')
  .xor('orderIdList', 'origClientOrderIdList');

/** Modify Order: a resting LIMIT by orderId or origClientOrderId, its side, and its new quantity and price (both sent). */
export const modifyOrderBody = Joi.object({
  symbol: symbol.required(),
  orderId,
  origClientOrderId: clientId,
  side: Joi.string().uppercase().valid('BUY', 'SELL').required(),
  quantity: Joi.number().greater(0).max(1e12).required(),
  price: Joi.number().greater(0).max(1e12).required(),
}).or('orderId', 'origClientOrderId');

/** The trading statistics (/futures/data): a symbol, one of Binance's periods, and a window of at most 500 rows. */
export const dataQuery = Joi.object({
  symbol: symbol.required(),
  period: Joi.string()
    .valid(...Object.keys(DATA_PERIODS))
    .required()
    .meta(codes({ 'any.only': 'bad_interval' })),
  startTime: ms,
  endTime: ms,
  limit: Joi.number().integer().min(1).max(500).default(30),
});
