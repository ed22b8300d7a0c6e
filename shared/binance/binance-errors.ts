/**
 * Our named errors as Binance USDⓈ-M answers them: `{code, msg}` with Binance's code and HTTP status, so clients
 * raise their usual exceptions (ccxt: -2014/-2015/-1022 AuthenticationError, -1021 InvalidNonce, -1003 and 429
 * RateLimitExceeded, -1121 BadSymbol). Pure.
 */
import type { AppError, ErrorCode } from '../core/errors.js';

export interface BinanceErrorBody {
  code: number;
  msg: string;
}

export interface BinanceErrorAnswer {
  status: number;
  body: BinanceErrorBody;
}

/** Binance's code, its HTTP status, and its message when ours would confuse a client that matches on it. */
interface Mapping {
  code: number;
  status: number;
  msg?: string;
}

const MAPPINGS: Partial<Record<ErrorCode, Mapping>> = {
  missing_api_key: { code: -2014, status: 401, msg: 'API-key format invalid.' },
  bad_api_key: { code: -2015, status: 401, msg: 'Invalid API-key, IP, or permissions for action.' },
  revoked_key: { code: -2015, status: 401, msg: 'Invalid API-key, IP, or permissions for action.' },
  secret_required: { code: -2015, status: 401 },
  stale_timestamp: { code: -1021, status: 400, msg: 'Timestamp for this request is outside of the recvWindow.' },
  bad_signature: { code: -1022, status: 400, msg: 'Signature for this request is not valid.' },
  rate_limited: { code: -1003, status: 429 },
  missing_param: { code: -1102, status: 400 },
  invalid_param: { code: -1130, status: 400 },
  invalid_json: { code: -1130, status: 400 },
  bad_interval: { code: -1120, status: 400, msg: 'Invalid interval.' },
  unknown_symbol: { code: -1121, status: 400, msg: 'Invalid symbol.' },
  not_found: { code: -1000, status: 404 },
  leverage_max: { code: -4028, status: 400 },
  leverage_min: { code: -4028, status: 400 },
  // one-way isolated margin only: Binance's own refusals of a change it cannot make (ccxt: OperationRejected)
  margin_mode_unsupported: { code: -4048, status: 400 },
  hedge_mode_unsupported: { code: -4068, status: 400 },
  order_type_unsupported: { code: -1116, status: 400, msg: 'Invalid orderType.' },
  reduce_only_rejected: { code: -2022, status: 400, msg: 'ReduceOnly Order is rejected.' },
  netting_unsupported: { code: -2010, status: 400 },
  post_only_unsupported: { code: -5022, status: 400 },
  time_in_force_unsupported: { code: -1115, status: 400, msg: 'Invalid timeInForce.' },
  unknown_order: { code: -2013, status: 400, msg: 'Order does not exist.' },
  cancel_rejected: { code: -2011, status: 400, msg: 'Unknown order sent.' },
  already_done: { code: -2011, status: 400, msg: 'Unknown order sent.' },
  listen_key_unknown: { code: -1125, status: 400, msg: 'This listenKey does not exist.' },
  // Modify Order: Binance's own refusals (ccxt: OperationRejected)
  modify_limit_only: { code: -5025, status: 400, msg: 'Only limit order is supported.' },
  nothing_to_modify: { code: -5027, status: 400, msg: 'No need to modify the order.' },
  // a change that lost its race every time (the change gate): Binance's "server busy, try again"
  busy: { code: -1008, status: 503 },
  // the engine's refusals of a resting order's level and of a position's stop or target: Binance's "would trigger"
  stop_wrong_side: { code: -2021, status: 400, msg: 'Order would immediately trigger.' },
  sl_wrong_side: { code: -2021, status: 400, msg: 'Order would immediately trigger.' },
  tp_wrong_side: { code: -2021, status: 400, msg: 'Order would immediately trigger.' },
  limit_marketable: { code: -2010, status: 400 },
  limit_price_far: { code: -2010, status: 400 },
  too_many_orders: { code: -2010, status: 400 },
  notional_max: { code: -2027, status: 400 },
  position_not_found: { code: -2022, status: 400, msg: 'ReduceOnly Order is rejected.' },
  already_closed: { code: -2022, status: 400, msg: 'ReduceOnly Order is rejected.' },
  margin_usd_min_1: { code: -4164, status: 400 },
  insufficient_margin: { code: -2019, status: 400, msg: 'Margin is insufficient.' },
  too_many_open: { code: -2010, status: 400 },
  position_triggered: { code: -2010, status: 400 },
  market_closed: { code: -2010, status: 400 },
  no_price: { code: -2010, status: 400 },
  upstream_unavailable: { code: -1007, status: 503 },
  unavailable: { code: -1007, status: 503 },
};

/** -1000 UNKNOWN for what Binance has no code for, with our status and message. */
const UNKNOWN = -1000;

export function binanceError(error: AppError): BinanceErrorAnswer {
  const mapping = MAPPINGS[error.code];
  return {
    status: mapping?.status ?? error.status,
    body: { code: mapping?.code ?? UNKNOWN, msg: mapping?.msg ?? error.message },
  };
}
