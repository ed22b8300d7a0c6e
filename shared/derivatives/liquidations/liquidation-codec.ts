/** The compact form a liquidation is stored in (one stream field): [ts, exchange, symbol, l|s, price, qty, notional]. */
import { isRecord, parseJsonText } from '../../market/parse-utils.js';
import { isLiqExchange, type LiquidationEvent } from './liquidation-event.js';

export function encodeLiquidation(e: LiquidationEvent): string {
  return JSON.stringify([e.ts, e.exchange, e.symbol, e.side === 'long_liquidated' ? 'l' : 's', e.price, e.qty, e.notional]);
}

export function decodeLiquidation(text: string): LiquidationEvent | undefined {
  const raw = parseJsonText(text);
  if (!Array.isArray(raw) || raw.length !== 7 || isRecord(raw)) return undefined;
  const [ts, exchange, symbol, side, price, qty, notional] = raw as unknown[];
  if (typeof ts !== 'number' || !isLiqExchange(exchange) || typeof symbol !== 'string') return undefined;
  if (typeof price !== 'number' || typeof qty !== 'number' || typeof notional !== 'number') return undefined;
  if (side !== 'l' && side !== 's') return undefined;
  return { ts, exchange, symbol, side: side === 'l' ? 'long_liquidated' : 'short_liquidated', price, qty, notional };
}
