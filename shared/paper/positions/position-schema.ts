/** The JSON schemas of a position, a trade row, a book's account and balance, and a book row (the OpenAPI components). */
import { ASSET_CLASSES } from '../../engine/fees.js';
import {
  arrayOf,
  boolean,
  epochMs,
  integer,
  nullable,
  number,
  objectSchema,
  oneOfValues,
  string,
  type JsonSchema,
} from '../../core/json-schema.js';
import type { BookRow, ResetResult } from './book-service.js';
import type { AccountView, BalanceView, MoneyFields, TradeRow } from './position-reads.js';
import type { PositionView } from './position-view.js';

const SIDES = ['long', 'short'] as const;
const usd = (description: string): JsonSchema => number(`${description}, USD`);

export const positionSchema = objectSchema<PositionView>(
  'A position. An open one carries its mark and what would settle now; a closed one (or a closed part) its exit and result.',
  {
    id: string('Position id'),
    account: string('The book: main or its name'),
    symbol: string('The ticker'),
    asset_class: oneOfValues(ASSET_CLASSES),
    side: oneOfValues(SIDES),
    status: oneOfValues(['open', 'closed']),
    entry: number('Fill price'),
    entry_price: number('Fill price (the original name of entry)'),
    qty: number('Quantity in asset units'),
    margin: usd('Margin as sent'),
    margin_usd: usd('Margin as sent (the original name of margin)'),
    leverage: number(),
    notional_usd: usd('qty x entry'),
    liq_price: number('Liquidation price'),
    mmr_pct: number('Maintenance margin, percent of notional'),
    sl: nullable(number("The stop in force: the tighter of the client's stop-loss and the trailing level")),
    tp: nullable(number('Take-profit price')),
    trail_pct: number('Trailing-stop distance, percent; absent when the position does not trail'),
    trail_hwm: nullable(number('Best price seen since entry (trailing stop)')),
    fee_rate_pct: number('Per-side fee rate stamped at open, percent'),
    fee_venue: nullable(string('Fee venue stamped at open')),
    feeOpen: usd('Entry-leg fee (informational)'),
    fee_open_usd: usd('Entry-leg fee (informational)'),
    fee_round_trip_usd: usd('Round-trip fee'),
    opened_ts: epochMs(),
    client_order_id: nullable(string()),
    source: oneOfValues(['api']),
    src: oneOfValues(['replay']),
    exit: number('Exit price (closed)'),
    exit_price: number('Exit price (closed; the original name of exit)'),
    closed_ts: epochMs(),
    pnl_usd: usd('Realized P&L (closed)'),
    roe_pct: number('Return on margin, percent (closed)'),
    fees_usd: usd('Fees: the round trip charged (closed) or due at the mark (open)'),
    funding_usd: usd('Funding paid (closed) or owed so far (open)'),
    close_reason: string('manual, sl, tp, trail, liquidation, ...'),
    liquidated: boolean(),
    partial_pct: number('On a closed part: the share closed, percent'),
    parent_id: string('On a closed part: the position it came from'),
    mark_price: nullable(number('Live price (open); null without one')),
    mark_stale: boolean('Present and true when the mark is older than fresh'),
    unrealized_pnl_usd: nullable(usd('What a close at the mark would settle (open)')),
    realism: objectSchema<NonNullable<PositionView['realism']>>(
      'The realism switches the position was filled with, kept for life',
      { slippage: boolean(), margin_tiers: boolean(), margin_venue: string('"" for none') },
      {},
    ),
    slippage_bps: number('Paid over the quoted price at entry, bps (spread plus impact)'),
    slippage_usd: usd('Paid over the quoted price at entry, over the quantity'),
    quoted_price: number('The quoted price the entry met, when slippage moved the fill off it'),
    mmr_tier: integer('The margin tier its mmr_pct came from (margin_tiers on)'),
    exit_slippage_bps: number('Present when its exits slip (this spread, bps) and its stops gap (exit_slippage at open)'),
    funding_mult: number('What its funding is multiplied by, when not 1 (0: funding off)'),
    fill_pct: number('A partial fill: the share of the requested margin that filled, percent'),
    requested_margin_usd: usd('A partial fill: the margin requested'),
  },
  {
    realism: true,
    slippage_bps: true,
    slippage_usd: true,
    quoted_price: true,
    mmr_tier: true,
    exit_slippage_bps: true,
    funding_mult: true,
    fill_pct: true,
    requested_margin_usd: true,
    trail_pct: true,
    src: true,
    exit: true,
    exit_price: true,
    closed_ts: true,
    pnl_usd: true,
    roe_pct: true,
    fees_usd: true,
    funding_usd: true,
    close_reason: true,
    liquidated: true,
    partial_pct: true,
    parent_id: true,
    mark_price: true,
    mark_stale: true,
    unrealized_pnl_usd: true,
  },
);

export const tradeSchema = objectSchema<TradeRow>(
  'A closed trade (or a closed part of one).',
  {
    id: string('Position id'),
    closed_ts: epochMs(),
    opened_ts: epochMs(),
    symbol: string('The ticker'),
    side: oneOfValues(SIDES),
    leverage: number(),
    margin_usd: usd('Margin'),
    qty: number(),
    entry_price: number(),
    exit_price: number(),
    pnl_usd: usd('Realized P&L'),
    roe_pct: number('Return on margin, percent'),
    fees_usd: usd('Fees charged'),
    funding_usd: usd('Funding paid'),
    liquidated: boolean(),
    via: string('How it closed: manual, sl, tp, trail, liquidation, ...'),
    partial_pct: number('On a closed part: the share closed, percent'),
    parent_id: string('On a closed part: the position it came from'),
  },
  { partial_pct: true, parent_id: true },
);

const moneyProperties: { [K in keyof MoneyFields]-?: JsonSchema } = {
  starting_balance_usd: usd('Starting balance'),
  balance_usd: usd('Starting balance plus realized P&L'),
  equity_usd: usd('Balance plus unrealized P&L'),
  margin_in_use_usd: usd('Margin of the open positions'),
  free_margin_usd: usd('Equity minus margin in use'),
  unrealized_pnl_usd: usd('Unrealized P&L of the open positions'),
  margin_enforced: boolean(
    'false (the default): the balance is a scorecard; true (/sim): an open past balance minus margin in use answers 402 ' +
      'insufficient_margin',
  ),
};

export const balanceSchema = objectSchema<BalanceView>('The money of a book.', { account: string('The book'), ...moneyProperties }, {});

export const accountSchema = objectSchema<AccountView>(
  'A book: its money, its open positions and its closed-trade record.',
  {
    account: string('The book'),
    ...moneyProperties,
    open_positions: integer(),
    realized_pnl_usd: usd('Realized P&L since the last reset'),
    closed_trades: integer(),
    wins: integer(),
    losses: integer(),
    win_rate_pct: nullable(number('Wins over decided trades, percent; null before the first')),
    liquidations: integer(),
    best_trade_usd: nullable(usd('Best closed trade')),
    return_pct: number('Realized P&L over the starting balance, percent'),
    reset_ts: nullable(epochMs('Last reset, epoch milliseconds')),
  },
  {},
);

type BookKey = BookRow['keys'][number];

export const bookSchema = objectSchema<BookRow>(
  'A book of the account, with its lifetime record and the keys bound to it.',
  {
    account: string('The book: main or its name'),
    open_positions: integer(),
    closed_trades: integer(),
    realized_pnl_usd: usd('Realized P&L since the last reset'),
    balance_usd: usd('Starting balance plus realized P&L'),
    wins: integer(),
    losses: integer(),
    reset_ts: nullable(epochMs('Last reset, epoch milliseconds')),
    lifetime: objectSchema<BookRow['lifetime']>(
      'Across resets',
      { closed_trades: integer(), realized_pnl_usd: usd('Realized P&L'), wins: integer(), losses: integer() },
      {},
    ),
    keys: arrayOf(
      objectSchema<BookKey>(
        'A key of the book (never its secret)',
        {
          id: string(),
          name: string(),
          bound: boolean('Bound to this book'),
          created: epochMs(),
          revoked: boolean(),
          calls: integer(),
          last_call_ts: nullable(epochMs()),
        },
        {},
      ),
    ),
  },
  {},
);

export const resetSchema = objectSchema<Omit<ResetResult, 'ok'>>(
  "A book's reset: its closed trades archived, its resting orders cancelled, its balance back to the start.",
  {
    reset_ts: epochMs(),
    archived_trades: integer(),
    cancelled_orders: integer(),
    starting_balance_usd: usd('Starting balance'),
  },
  {},
);
