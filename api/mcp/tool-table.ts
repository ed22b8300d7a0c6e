/**
 * The 29 MCP tools: the original's 28 (names and arguments as its clients know them) and paper_sim.
 * Each names the REST route it answers through; nothing here validates or computes. Descriptions are
 * written for a model: what the tool does, the units, what an error means, one example.
 */
import Joi from 'joi';
import { symbolFilter } from './symbol-filter.js';
import type { ToolSpec } from './tool-spec.js';

const BOT = '/api/bot/v1';

/** How every tool reports a refusal; appended to each description. */
const ERRORS =
  'On failure the result has isError true and structuredContent.error { code, message, status, ...details }: the same named code as ' +
  'the REST route ' +
  '(e.g. missing_param or invalid_param with param, unknown_symbol, rate_limited with retry_after seconds).';
const KEYED =
  'Needs the API key in the MCP request header X-API-Key (or Authorization: Bearer <key>); missing_api_key, bad_api_key or ' +
  'revoked_key otherwise. ' +
  'Each call counts against the key like a REST call (rate limit per minute and usage).';

const describe = (text: string, keyed: boolean): string => `${text} ${keyed ? `${KEYED} ` : ''}${ERRORS}`;

const MARKET_TOOLS: ToolSpec[] = [
  {
    name: 'get_price',
    read: `${BOT}/price`,
    description: describe(
      'Live price of one perpetual in USDT (median of the exchanges), with change_24h_pct (percent) and ts (unix ms); stale true ' +
        'when no exchange is fresh. ' +
        'unknown_symbol: the service does not list that ticker. Example: {"symbol":"BTC"} -> ' +
        '{"symbol":"BTCUSDT","price":65012.5,"change_24h_pct":1.42,...}.',
      false,
    ),
  },
  {
    name: 'get_klines',
    read: `${BOT}/klines`,
    description: describe(
      'OHLCV candles of one symbol, oldest first; time in unix seconds, prices in USDT. interval in minutes (1, 5, 15, 30, 60, 240, ' +
        '1440; also 1m, 1h, 4h, 1d), default 60; ' +
        'limit 1-1000 (default 200); end (unix ms) pages backwards. bad_interval: an interval not in that list. Example: ' +
        '{"symbol":"ETH","interval":"15","limit":3}.',
      false,
    ),
  },
  {
    name: 'get_markets',
    read: `${BOT}/markets`,
    rename: { asset_class: 'class' },
    description: describe(
      'Tradable symbols with asset_class, max_leverage (multiple) and taker_fee_pct (percent per side); asset_class filters: ' +
        'crypto, stock, forex, metal or index. ' +
        'Example: {"asset_class":"crypto"} -> ' +
        '{"markets":[{"symbol":"BTCUSDT","asset_class":"crypto","max_leverage":1000,"taker_fee_pct":0.055}],"count":1}.',
      true,
    ),
  },
  {
    name: 'get_funding',
    read: '/api/v1/funding',
    filter: symbolFilter('pairs'),
    description: describe(
      'Funding rates of USDT perpetuals (Binance, Bybit, OKX and their mean): rate per funding interval as a fraction, ratePct in ' +
        'percent, nextFundingTime unix ms. ' +
        'Positive: longs pay shorts. symbol keeps one row (an empty list when that symbol is not covered). upstream_unavailable: no ' +
        'refresh yet. Example: {"symbol":"BTC"}.',
      false,
    ),
  },
  {
    name: 'get_open_interest',
    read: '/api/v1/open-interest',
    filter: symbolFilter('pairs'),
    description: describe(
      'Open interest in USD per USDT perpetual, summed over Binance, Bybit and OKX (per exchange in exchanges), largest first. ' +
        'symbol keeps one row. ' +
        'upstream_unavailable: no refresh yet. Example: {"symbol":"SOL"} -> ' +
        '{"pairs":[{"symbol":"SOL","pair":"SOLUSDT","oiUsd":2100000000,...}],...}.',
      false,
    ),
  },
  {
    name: 'get_liquidations',
    read: '/api/v1/liquidations',
    filter: symbolFilter('coins'),
    description: describe(
      'Liquidations of the last 24 h per coin across nine exchanges, in USD: longUsd (longs liquidated), shortUsd, counts, longPct. ' +
        'symbol keeps one coin. ' +
        'Example: {"symbol":"BTC"} -> {"coins":[{"symbol":"BTC","longUsd":500000,"shortUsd":250000,...}],"totalUsd":...}.',
      false,
    ),
  },
  {
    name: 'get_screener',
    read: '/api/v1/screener',
    filter: symbolFilter('rows'),
    description: describe(
      'Technical screener of the top perpetuals on 1h candles: score 0-100 (bullish at 50 and above), verdict, RSI(14), ' +
        'MACD(12,26,9), EMA 20/50/200, ATR(14) in price units, trend, ' +
        'and a setup (dir, entry, sl, tp1-tp3, lev) only when the score is 70+ (long) or 30- (short). symbol keeps one row. ' +
        'upstream_unavailable: no run yet. Example: {"symbol":"ETH"}.',
      false,
    ),
  },
  {
    name: 'get_fear_greed',
    read: '/api/v1/fear-greed',
    description: describe(
      'Crypto Fear and Greed index: value 0 (extreme fear) to 100 (extreme greed), classification, 30 days of history newest first ' +
        '(v, c, ts unix ms). ' +
        'stale true: the provider is down and this is the last good answer. Example: {} -> {"value":25,"classification":"Extreme ' +
        'Fear",...}.',
      false,
    ),
  },
  {
    name: 'get_economic_calendar',
    read: '/api/v1/calendar',
    description: describe(
      'Macro events with exact UTC times: FOMC decisions, CPI and NFP releases, monthly options expiries, crypto milestones; impact 1-3. ' +
        'Without year: the next 90 days; year 2023-2027: that year. Example: {} -> ' +
        '{"events":[{"ts":1769626800000,"type":"fomc","title":"FOMC rate decision","impact":3}],...}.',
      false,
    ),
  },
  {
    name: 'calc_liquidation',
    read: '/api/v1/calc/liquidation',
    description: describe(
      'Isolated-margin liquidation price: long = entry x (1 - 1/leverage + mmr/100), short mirrored; mmr is the maintenance margin ' +
        'in percent (default 0.5). ' +
        'entry in USD, leverage a multiple > 0, side long or short. entry_min / leverage_min: a value not above 0. ' +
        'Example: {"entry":65000,"leverage":10,"side":"long"} -> liquidationPrice 58825 (9.5% below entry).',
      false,
    ),
  },
  {
    name: 'calc_position_size',
    read: '/api/v1/calc/position-size',
    rename: { risk_pct: 'risk' },
    description: describe(
      'Risk-based position size: units = (balance x risk_pct/100) / |entry - stop|, with its notional and the margin at leverage. ' +
        'balance in USD, risk_pct in percent (0-100], ' +
        'entry and stop prices. entry_equals_stop: a stop at the entry risks nothing. Example: ' +
        '{"balance":10000,"risk_pct":1,"entry":65000,"stop":64000} -> positionSize 0.1 (BTC).',
      false,
    ),
  },
];

const OPEN_EXAMPLE = '{"symbol":"BTC","side":"long","margin_usd":100,"leverage":10,"sl":60000,"client_order_id":"agent-7f3a-1"}';

const PAPER_TOOLS: ToolSpec[] = [
  {
    name: 'paper_open',
    write: `${BOT}/open`,
    description: describe(
      'Opens a paper futures position at the live price (or rests a limit or stop entry with type and limit_price). margin_usd in ' +
        'USD (1-100000), leverage a multiple ' +
        "(up to the symbol's max_leverage from get_markets), sl, tp and limit_price in USDT, trail_pct in percent. " +
        'ALWAYS send a fresh client_order_id (1-64 printable characters) per intended trade and reuse it when you retry after a ' +
        'timeout or an error: ' +
        'the retry then answers the same position with idempotent true instead of opening a second one. ' +
        'Use dry_run true first when unsure: it prices the trade (entry, qty, liq_price, fees) and checks every rule without ' +
        'opening anything. ' +
        'Errors: leverage_max (max, requested), margin_usd_min_1, sl_wrong_side / tp_wrong_side (the level is on the losing side of ' +
        'the entry), too_many_open, unknown_symbol. ' +
        `Example: ${OPEN_EXAMPLE} -> {"ok":true,"position":{"id":"bp...","entry":65000,"liq_price":58825,...},"idempotent":false}.`,
      true,
    ),
  },
  {
    name: 'paper_limit_order',
    write: `${BOT}/open`,
    adapt: (schema) =>
      schema.keys({
        type: Joi.string().trim().lowercase().valid('limit', 'stop').default('limit').description('limit (default) or stop'),
        limit_price: schema.extract('limit_price').required(),
      }),
    description: describe(
      'Places a resting limit (default) or stop entry at limit_price (USDT): a limit long below the market, short above; a stop ' +
        'long above, short below. ' +
        'It fills when a closed 1-minute candle reaches the level, expires after 30 days; 20 per book; see paper_orders. Same body ' +
        'as paper_open; use client_order_id for retries. ' +
        'limit_marketable: a limit on the wrong side of the market (it would fill now); limit_price_far: more than 50% away. ' +
        'Example: {"symbol":"BTC","side":"long","margin_usd":100,"leverage":5,"limit_price":62000,"client_order_id":"agent-lo-1"} ' +
        '-> {"ok":true,"order":{"order_id":"lo...","status":"open"}}.',
      true,
    ),
  },
  {
    name: 'paper_close',
    write: `${BOT}/close`,
    description: describe(
      'Closes an open position at the live price; pct 1-100 (default 100) closes that percent and keeps the rest open. pnl_usd in ' +
        'USD, net of fees and funding. ' +
        'position_not_found: no such id in this book; already_closed: it was closed before (by a stop, target or liquidation perhaps). ' +
        'Example: {"id":"bpmb3x0k2a1b2c3d4","pct":50} -> {"ok":true,"closed":{...,"pnl_usd":3.21},"remaining":{...}}.',
      true,
    ),
  },
  {
    name: 'paper_sltp',
    write: `${BOT}/sltp`,
    description: describe(
      'Sets (a number), clears (null) or keeps (omitted) the stop-loss sl, take-profit tp (USDT prices) and trailing stop trail_pct ' +
        '(percent) of an open position. ' +
        'sl_wrong_side: a long stop must be below the entry (a short above); sl_or_tp_required: nothing to change. Example: ' +
        '{"id":"bpmb3x0k2a1b2c3d4","sl":63000,"tp":70000}.',
      true,
    ),
  },
  {
    name: 'paper_modify_order',
    write: `${BOT}/modify_order`,
    description: describe(
      'Changes a resting order: limit_price, sl, tp (USDT), margin_usd (USD), leverage, trail_pct (percent); null clears sl, tp, ' +
        'trail_pct. ' +
        'not_found: no such order; already_done: it filled, expired or was cancelled; nothing_to_modify: no field given. Example: ' +
        '{"order_id":"lomb3x0k2a1b2c3d4","limit_price":61500}.',
      true,
    ),
  },
  {
    name: 'paper_cancel_order',
    write: `${BOT}/cancel_order`,
    description: describe(
      'Cancels a resting limit or stop order. already_done: it already filled, expired or was cancelled (read paper_orders). ' +
        'Example: {"order_id":"lomb3x0k2a1b2c3d4"} -> {"ok":true,"order_id":"lomb3x0k2a1b2c3d4","status":"cancelled"}.',
      true,
    ),
  },
  {
    name: 'paper_positions',
    read: `${BOT}/positions`,
    description: describe(
      'Open positions of the book marked to the live price (mark_price, unrealized_pnl_usd in USD, net of the round-trip fee and ' +
        'funding), or closed ones with status closed; ' +
        'since (unix ms) limits to positions opened or closed from then; at most 100 rows. Example: {"status":"open"} -> ' +
        '{"positions":[...],"count":2}.',
      true,
    ),
  },
  {
    name: 'paper_trades',
    read: `${BOT}/trades`,
    description: describe(
      'Closed trades, newest first, with pnl_usd (USD) and roe_pct (percent of margin); limit 1-500 (default 100); page with before ' +
        '= the previous answer next_before. ' +
        'Example: {"limit":20} -> {"trades":[...],"count":20,"next_before":"1767225600000"}.',
      true,
    ),
  },
  {
    name: 'paper_fees',
    read: `${BOT}/fees`,
    write: `${BOT}/fees`,
    rename: { set: 'venue' },
    description: describe(
      'Without arguments: the nine exchange fee schedules (taker_pct, maker_pct, referral discount, effective_taker_pct, in percent ' +
        'per side) and the account fee_venue. ' +
        'With set: changes the fee venue of new crypto positions (bybit, binance, bitget, gate, hyperliquid, okx, kraken, mexc, ' +
        'kucoin; null clears it). ' +
        'unknown_fee_venue: not one of those. Example: {"set":"hyperliquid"} -> {"ok":true,"fee_venue":"hyperliquid"}.',
      true,
    ),
  },
  {
    name: 'paper_realism',
    read: `${BOT}/realism`,
    write: `${BOT}/realism`,
    description: describe(
      'Without arguments: the realism settings (slippage, margin_tiers, margin_venue), their defaults, the maintenance-margin tiers ' +
        'and venues. ' +
        'With any of slippage (boolean), margin_tiers (boolean) or margin_venue (string): changes them; omitted fields keep their value. ' +
        'unknown_margin_venue: not a listed venue. Example: {"slippage":true} -> {"ok":true,"realism":{"slippage":true,...}}.',
      true,
    ),
  },
  {
    name: 'paper_report',
    read: `${BOT}/report`,
    description: describe(
      'Trading report of the book over days (default 30; 90 on paid plans): totals, skill score, breakdowns by coin, leverage, ' +
        'side, hour and day, and findings (paid plans); ' +
        'locked names the parts the plan withholds. Example: {"days":30}.',
      true,
    ),
  },
  {
    name: 'paper_equity',
    read: `${BOT}/equity`,
    description: describe(
      'Equity curve of the book: points { t (unix ms), realized_pnl_usd, equity_usd, closes }, now, max_drawdown_pct (percent), ' +
        'starting_balance_usd. days 1-90 (default 30), ' +
        'step_min 5-1440 minutes between points. Example: {"days":7,"step_min":60}.',
      true,
    ),
  },
  {
    name: 'paper_replay',
    read: `${BOT}/replay`,
    write: `${BOT}/replay`,
    description: describe(
      'Replays a complete past UTC day of one crypto symbol: trading calls of this key then act on a separate replay journal priced ' +
        'at the replay cursor. ' +
        'Start with symbol, day (YYYY-MM-DD) and speed (1-600, default 60); read progress with interval and bars (or no arguments); ' +
        'stop with act "stop" (answers the summary). ' +
        'replay_running: one already runs; day_not_finished: that day is not over; no_replay: nothing to stop. Example: ' +
        '{"symbol":"BTC","day":"2026-09-01","speed":120}.',
      true,
    ),
  },
  {
    name: 'paper_balance',
    read: `${BOT}/balance`,
    description: describe(
      'Balance of the book in USD: starting_balance_usd (10000), balance_usd, equity_usd, margin in use, free_margin_usd, ' +
        'unrealized P&L; margin_enforced false (a scorecard). Example: {}.',
      true,
    ),
  },
  {
    name: 'paper_orders',
    read: `${BOT}/orders`,
    description: describe(
      'Resting limit and stop orders (oldest first) and the last 20 done ones: status open, filled (position_id names the ' +
        'position), cancelled, expired or rejected (note says why). Example: {}.',
      true,
    ),
  },
  {
    name: 'paper_accounts',
    read: `${BOT}/accounts`,
    description: describe(
      'Every book of the account (main and named books) with open positions, closed trades, P&L since reset and the keys bound to ' +
        'it; this_key_account names the book of this key. Example: {}.',
      true,
    ),
  },
  {
    name: 'paper_reset',
    write: `${BOT}/reset`,
    description: describe(
      "Restarts this key's book at 10000 USD: archives its closed trades and cancels its resting orders. Needs confirm true. " +
        'confirm_required: confirm was not true; open_positions_exist: close them first (paper_close). Example: {"confirm":true} -> ' +
        '{"ok":true,"reset_ts":...,"archived_trades":12}.',
      true,
    ),
  },
  {
    name: 'paper_sim',
    read: `${BOT}/sim`,
    write: `${BOT}/sim`,
    description: describe(
      'Simulation settings of the book (the 3.0 clients): start_balance_usd, margin_enforced, leverage_max, slippage, latency_ms, ' +
        'partial_fills, funding and more, or a preset ' +
        '(frictionless, realistic, binance, bybit, okx, hyperliquid, thin_book, brutal). Without arguments: the current settings; ' +
        'with any: changes them. ' +
        'Out-of-range values are refused with a named code. Example: {"preset":"realistic"}.',
      true,
    ),
  },
];

export const TOOL_SPECS: readonly ToolSpec[] = [...MARKET_TOOLS, ...PAPER_TOOLS];
