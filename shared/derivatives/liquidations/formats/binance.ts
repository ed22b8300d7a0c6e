/**
 * Binance USDⓈ-M `forceOrder` (`!forceOrder@arr` carries every symbol). `o.S` is the side of the
 * liquidation ORDER: SELL closes a long. Quantity: the filled amount `z` (else the order's `q`), at
 * the average price `ap` (else `p`). Binance pushes at most the latest liquidation per symbol per second.
 */
import { excerpt, isRecord, toNumber, toStr } from '../../../market/parse-utils.js';
import { emptyLiquidationFrame, liquidation, pairOfConcatenated, sideFromOrder, type LiquidationFrame } from '../liquidation-event.js';

export const BINANCE_ALL_LIQUIDATIONS = '!forceOrder@arr';

export function parseBinanceLiquidations(msg: unknown): LiquidationFrame {
  const out = emptyLiquidationFrame();
  // combined streams wrap the event as {stream, data}; raw /ws streams deliver it alone
  const data = isRecord(msg) && isRecord(msg.data) && typeof msg.stream === 'string' ? msg.data : msg;
  if (!isRecord(data) || data.e !== 'forceOrder') return out;
  const o = data.o;
  if (!isRecord(o)) {
    out.issues.push(`binance: forceOrder without o: ${excerpt(msg)}`);
    return out;
  }
  const raw = toStr(o.s);
  const symbol = raw ? pairOfConcatenated(raw) : undefined;
  const side = sideFromOrder(toStr(o.S) ?? '');
  const filled = toNumber(o.z);
  const qty = filled !== undefined && filled > 0 ? filled : toNumber(o.q);
  const avg = toNumber(o.ap);
  const price = avg !== undefined && avg > 0 ? avg : toNumber(o.p);
  const ts = toNumber(o.T) ?? toNumber(data.E);
  const event =
    symbol && side && qty !== undefined && price !== undefined && ts !== undefined
      ? liquidation(`binance|${raw}|${ts}|${String(o.S)}|${String(o.q)}|${String(o.p)}`, {
          ts,
          exchange: 'binance',
          symbol,
          side,
          price,
          qty,
        })
      : undefined;
  if (event) out.events.push(event);
  else out.issues.push(`binance: unreadable forceOrder: ${excerpt(o)}`);
  return out;
}
