/**
 * Every error code the service answers with, and its HTTP status. v1, v2 and the MCP tools
 * all take codes from here, so a client sees one vocabulary.
 */
export const ERROR_CODES = {
  // request shape
  missing_param: 400,
  invalid_json: 400,
  payload_too_large: 413,
  result_not_finite: 400,
  roe_unreachable: 400,
  /** A calculator mmr that puts the liquidation at or past the entry (mmr >= 100 / leverage). */
  mmr_crosses_entry: 400,
  invalid_param: 400,
  missing_symbol: 400,
  bad_interval: 400,
  leverage_min: 400,
  entry_min: 400,
  entry_equals_stop: 400,
  // auth and limits
  missing_api_key: 401,
  bad_api_key: 401,
  revoked_key: 401,
  /** An /ops route (operator dashboard) without the operator token (OPS_TOKEN) as bearer or basic credentials. */
  ops_unauthorized: 401,
  /** A change (retry, clean, add) on the operator dashboard sent by another site's page with the browser's credentials. */
  ops_cross_site: 403,
  rate_limited: 429,
  // exchange dialects' signed requests (/fapi: Binance's timestamp, recvWindow and HMAC signature)
  /** The request's timestamp is outside its recvWindow (Binance -1021). */
  stale_timestamp: 400,
  /** The signature is not the HMAC-SHA256 of the request's parameters under the key's secret (Binance -1022). */
  bad_signature: 400,
  /** A signed request with a key that has no HMAC secret (made without --secret). */
  secret_required: 401,
  /** Binance's hedge mode (dualSidePosition): the dialect trades one-way mode only. */
  hedge_mode_unsupported: 400,
  /** A Binance order type the dialect does not take yet (MARKET only). */
  order_type_unsupported: 400,
  /** A reduceOnly or closePosition order with no position against it to reduce (Binance -2022). */
  reduce_only_rejected: 400,
  /** A one-way order that would add to a position or flip it through zero: not an engine operation yet. */
  netting_unsupported: 400,
  /** A Binance timeInForce other than GTC (IOC, FOK, GTD): resting orders here rest until filled or cancelled (-1115). */
  time_in_force_unsupported: 400,
  /** A Binance order the book has no trace of, by orderId or origClientOrderId (-2013). */
  unknown_order: 400,
  /** A Binance cancel of an order that is not resting: unknown, or already done (-2011). */
  cancel_rejected: 400,
  /** A Binance listenKey that does not exist (never made, expired or closed): keepalive and the user-data stream (-1125). */
  listen_key_unknown: 400,
  /** A Binance Modify Order of anything but a resting LIMIT (a stop entry, a position's level): Binance -5025. */
  modify_limit_only: 400,
  /** A Binance /futures/data statistic Perpdesk does not collect (top traders' ratios, taker volumes): refused, not guessed. */
  statistic_unavailable: 400,
  // contention: a change that lost its race for a position or order every time it was tried (Retry-After)
  busy: 409,
  // accounts, keys and books
  max_keys: 409,
  max_books: 400,
  bad_book: 400,
  // paper trading: open, close, sltp, fees, reset (the names the original's clients know)
  symbol_required: 400,
  side_required: 400,
  leverage_max: 400,
  margin_usd_min_1: 400,
  margin_usd_max_100000: 400,
  sl_wrong_side: 400,
  tp_wrong_side: 400,
  trail_pct_invalid: 400,
  reduce_only_unsupported: 400,
  post_only_unsupported: 400,
  margin_mode_unsupported: 400,
  unknown_fee_venue: 400,
  id_required: 400,
  sl_or_tp_required: 400,
  confirm_required: 400,
  no_price: 400,
  market_closed: 409,
  position_not_found: 404,
  too_many_open: 409,
  /** A one-way open (an exchange dialect's) of a symbol the book already holds a position in: it nets onto that one. */
  symbol_held: 409,
  already_closed: 409,
  remaining_margin_min_1: 400,
  /** An increase of a position whose stop, target or liquidation the live price has crossed: it is being settled there. */
  position_triggered: 409,
  open_positions_exist: 409,
  // resting orders: limit and stop entries, modify_order, cancel_order
  limit_price_required: 400,
  limit_marketable: 400,
  limit_price_far: 400,
  stop_wrong_side: 400,
  order_id_required: 400,
  nothing_to_modify: 400,
  too_many_orders: 409,
  already_done: 409,
  // push: webhooks (paid plans) and the WebSocket stream
  plan_required: 402,
  bad_url: 400,
  bad_event: 400,
  too_many_webhooks: 409,
  webhook_not_found: 404,
  /** The operator CLI's redeliver: the hook is paused, so its deliveries would be skipped. */
  webhook_paused: 409,
  upgrade_required: 426,
  whsink_rate_limited: 429,
  whsink_full: 429,
  /** One client made its share of new whsink addresses this window (WHSINK_CLIENT_MAX_SINKS); its existing ones still take deliveries. */
  whsink_client_limit: 429,
  // analytics: /equity and /report (out-of-range input is refused, never clamped)
  days_invalid: 400,
  step_min_invalid: 400,
  /** A report deeper than the plan's (Free 30 days, paid 90): names the plan and its max_days. */
  days_beyond_plan: 400,
  // replay of a past day (shared/paper/replay)
  day_invalid: 400,
  day_not_finished: 400,
  speed_invalid: 400,
  replay_crypto_only: 400,
  no_data: 404,
  no_replay: 404,
  replay_running: 409,
  /** A limit or stop entry while the key's replay runs: the replay journal fills market entries only. */
  replay_market_only: 400,
  /** A trading call on another symbol than the running replay's. */
  replay_symbol_only: 409,
  // resources
  not_found: 404,
  unknown_symbol: 404,
  // macro data
  unknown_category: 400,
  // the arena board: ?season= outside the current season and the ones kept
  bad_season: 400,
  // realism and the simulation profile (/realism, /sim, and what they do to /open)
  unknown_margin_venue: 400,
  unknown_preset: 400,
  /** A /sim or /open value outside its documented range (never clamped). */
  sim_out_of_range: 400,
  /** margin_enforced: the open needs more than the book's free margin (the numbers come with it). */
  insufficient_margin: 402,
  /** max_notional_usd of the book's profile. */
  notional_max: 400,
  /** partial_fills: the modelled depth takes less than min_fill_pct of the request. */
  fill_below_min: 409,
  /** reject_rate_pct: the simulated venue refused this order; retry it. */
  order_rejected: 503,
  // upstream and internals
  upstream_unavailable: 503,
  /** The exchanges' REST budget for calls users drive (history, replays) is spent for now: retry_after names the seconds. */
  upstream_busy: 503,
  /** Redis (all state) is unreachable: nothing can be read or written until it is back (Retry-After). */
  unavailable: 503,
  internal: 500,
  // MCP (/mcp) and /ai
  /** An MCP tool whose REST route this server does not serve (yet). */
  tool_unavailable: 501,
  /** /ai: the account's reads of the day are used up (the plan's aiReadsPerDay); retry_after names the seconds to 00:00 UTC. */
  ai_quota_exceeded: 429,
  // the site: e-mail sign-in, sessions, key management
  /** A site call (key management, trading from the page) without a live session cookie. */
  login_required: 401,
  /** A sign-in link that is unknown, already used or older than 15 minutes: ask for a new one. */
  link_invalid: 400,
  /** A state-changing site call whose Origin is missing or not the site's own (CSRF). */
  cross_site: 403,
  /** The SMTP server refused or could not be reached: nothing was sent; retry_after names the seconds to wait. */
  mail_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields a client may need to act on the error (e.g. the allowed maximum). */
    readonly details: Record<string, unknown> = {},
    /** What went wrong inside (upstream addresses, their errors): written to the log, never to the answer. */
    readonly logDetails?: Record<string, unknown>,
  ) {
    super(message);
    this.status = ERROR_CODES[code];
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** The 404 for a symbol the service neither follows nor knows, naming it as the client sent it. */
export function unknownSymbol(input: string): AppError {
  return new AppError('unknown_symbol', `unknown symbol: ${input}`, { symbol: input });
}
