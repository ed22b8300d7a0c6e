/** The JSON schema of a /markets row (the OpenAPI component Market). */
import { ASSET_CLASSES } from '../../engine/fees.js';
import { boolean, integer, number, objectSchema, oneOfValues, string } from '../../core/json-schema.js';
import type { MarketRow } from './market-catalog.js';

export const marketSchema = objectSchema<MarketRow>(
  'A tradable symbol, its class, leverage cap and per-side taker fee.',
  {
    symbol: string(),
    asset_class: oneOfValues(ASSET_CLASSES),
    max_leverage: integer('The highest leverage an open may use'),
    taker_fee_pct: number('Per-side taker fee of the class, percent'),
    market_closed: boolean(
      'Opens on it answer 409 market_closed now: a TradFi contract whose exchange lists its market closed, or whose price its exchanges have published unchanged past TRADFI_FROZEN_MS; never a coin',
    ),
  },
  {},
);
