/**
 * Bitget public WebSocket v3 (`/v3/ws/public`), topic `liquidation` per instType. `side` is the
 * liquidated POSITION's side (buy = a long was liquidated; tardis maps it the same way), `amount` the
 * base-coin quantity. Bitget pushes once a second only the largest long and the largest short
 * liquidation of each pair in that second.
 */
import { excerpt, isRecord, toNumber, toStr } from '../../../market/parse-utils.js';
import { emptyLiquidationFrame, liquidation, pairOfConcatenated, sideFromPosition, type LiquidationFrame } from '../liquidation-event.js';

export const BITGET_LIQUIDATION_INST_TYPES = ['usdt-futures', 'usdc-futures'] as const;

export function bitgetSubscribeLiquidations(instTypes: readonly string[] = BITGET_LIQUIDATION_INST_TYPES): string {
  return JSON.stringify({ op: 'subscribe', args: instTypes.map((instType) => ({ instType, topic: 'liquidation' })) });
}

export function parseBitgetLiquidations(msg: unknown): LiquidationFrame {
  const out = emptyLiquidationFrame();
  if (!isRecord(msg) || !isRecord(msg.arg) || msg.arg.topic !== 'liquidation' || !Array.isArray(msg.data)) return out;
  for (const row of msg.data) {
    if (!isRecord(row)) continue;
    const name = toStr(row.symbol);
    const symbol = name ? pairOfConcatenated(name) : undefined;
    const side = sideFromPosition(toStr(row.side) ?? '');
    const qty = toNumber(row.amount);
    const price = toNumber(row.price);
    const ts = toNumber(row.ts);
    const id = `bitget|${name}|${String(row.ts)}|${String(row.side)}|${String(row.amount)}|${String(row.price)}`;
    const event =
      symbol && side && qty !== undefined && price !== undefined && ts !== undefined
        ? liquidation(id, { ts, exchange: 'bitget', symbol, side, price, qty })
        : undefined;
    if (event) out.events.push(event);
    else out.issues.push(`bitget: unreadable liquidation: ${excerpt(row)}`);
  }
  return out;
}
