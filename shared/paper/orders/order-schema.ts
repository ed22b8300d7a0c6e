/** The JSON schema of a resting order as clients see it (the OpenAPI component Order). */
import { ASSET_CLASSES } from '../../engine/fees.js';
import { boolean, epochMs, nullable, number, objectSchema, oneOfValues, string } from '../../core/json-schema.js';
import type { Order } from './order-types.js';

export const orderSchema = objectSchema<Order>(
  'A limit or stop entry: it rests until a closed 1-minute candle reaches limit_price, then opens a position (position_id).',
  {
    order_id: string('Order id (starts with lo)'),
    type: oneOfValues(['limit', 'stop']),
    account: string('The book: main or its name'),
    symbol: string('The ticker'),
    asset_class: oneOfValues(ASSET_CLASSES),
    side: oneOfValues(['long', 'short']),
    limit_price: number('The level the position opens at'),
    margin_usd: number('Margin, USD'),
    leverage: number(),
    sl: nullable(number('Stop-loss of the position it opens')),
    tp: nullable(number('Take-profit of the position it opens')),
    trail_pct: nullable(number('Trailing-stop distance of the position it opens, percent')),
    fee_venue: nullable(string('Fee venue the position will be stamped with')),
    mmr_pct: nullable(
      number(
        "The maintenance rate its fill is stamped with, percent: the open's mmr_pct or the book's margin model at placement; null: 0.5",
      ),
    ),
    client_order_id: nullable(string()),
    status: string('Resting until it fills; then filled, cancelled, expired, or a fill refused (with note)'),
    placed_ts: epochMs(),
    expires_ts: epochMs(),
    fills_from_ts: epochMs('Candles opening before this minute never fill it'),
    modified_ts: epochMs(),
    done_ts: epochMs('When it stopped resting'),
    position_id: string('Filled: the position it opened'),
    filled_ts: epochMs(),
    note: string('Why it was cancelled or its fill refused'),
    realism: objectSchema<NonNullable<Order['realism']>>(
      "The realism its position will be stamped with (the book's profile at placement; slippage false: it fills at its level)",
      { slippage: boolean(), margin_tiers: boolean(), margin_venue: string('"" for none') },
      {},
    ),
    taker_bps: number("The book's taker fee at placement, bps per side, when not the tables"),
    funding_mult: number("The book's funding multiplier at placement, when not 1 (0: funding off)"),
  },
  { modified_ts: true, done_ts: true, position_id: true, filled_ts: true, note: true, realism: true, taker_bps: true, funding_mult: true },
);
