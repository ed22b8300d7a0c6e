/**
 * OKX `liquidation-orders` on the public socket the OKX venue already serves (okx.ts routes the
 * subscription here): SWAP only; `posSide` is the liquidated position, `side` the order's side, `sz`
 * contracts of ctVal coin, `bkPx` the bankruptcy price.
 */
import { fmt, trim } from '../format.js';
import type { LiquidationEvent } from '../sim-types.js';
import { ctVal, usdtInstId } from '../venues/okx-format.js';
import type { SymbolSpec } from '../symbols.js';
import { clean } from './liquidation-venue.js';

export const OKX_LIQUIDATION_CHANNEL = 'liquidation-orders';
/** The hub topic of the channel for one instType. */
export const okxLiquidationTopic = (instType: string): string => `${OKX_LIQUIDATION_CHANNEL}:${instType}`;

export function okxLiquidationFrame(spec: SymbolSpec, ev: LiquidationEvent): Record<string, unknown> {
  const instId = usdtInstId(spec);
  const size = ctVal({ instId, spec, inverse: false });
  const detail = {
    bkLoss: '0',
    bkPx: fmt(ev.price, spec.priceDp),
    ccy: '',
    posSide: ev.side,
    side: ev.side === 'long' ? 'sell' : 'buy',
    sz: trim(clean(ev.qty / size), 8),
    ts: String(ev.ts),
  };
  const family = `${spec.base}-USDT`;
  return {
    arg: { channel: OKX_LIQUIDATION_CHANNEL, instType: 'SWAP' },
    data: [{ details: [detail], instFamily: family, instId, instType: 'SWAP', uly: family }],
  };
}
