/**
 * HTX (Huobi) USDT-margined swaps: `public.*.liquidation_orders` on /linear-swap-notification (gzip
 * frames, server `{"op":"ping"}` answered with `{"op":"pong"}`). `direction` is the liquidation
 * ORDER's side (sell closes a long), `amount` the base coin and `trade_turnover` the USDT value. Coin-
 * margined contracts (no amount) count `volume` contracts of 100 USD (BTC) or 10 USD (others).
 */
import { excerpt, isRecord, toNumber, toStr } from '../../../market/parse-utils.js';
import { emptyLiquidationFrame, liquidation, pairOfBase, sideFromOrder, type LiquidationFrame } from '../liquidation-event.js';

export const HTX_LIQUIDATION_TOPIC = 'public.*.liquidation_orders';

export function htxSubscribeLiquidations(cid: string): string {
  return JSON.stringify({ op: 'sub', cid, topic: HTX_LIQUIDATION_TOPIC });
}

/** The pong for a server ping frame, or undefined when the text is not one. */
export function htxPong(text: string): string | undefined {
  if (!text.includes('"ping"')) return undefined;
  try {
    const msg: unknown = JSON.parse(text);
    return isRecord(msg) && msg.op === 'ping' ? JSON.stringify({ op: 'pong', ts: msg.ts }) : undefined;
  } catch {
    return undefined;
  }
}

export function parseHtxLiquidations(msg: unknown): LiquidationFrame {
  const out = emptyLiquidationFrame();
  if (!isRecord(msg) || msg.op !== 'notify' || typeof msg.topic !== 'string' || !msg.topic.endsWith('.liquidation_orders')) return out;
  if (!Array.isArray(msg.data)) return out;
  for (const row of msg.data) {
    if (!isRecord(row)) continue;
    const code = toStr(row.contract_code);
    const coin = toStr(row.symbol) ?? code?.split('-')[0];
    const symbol = coin ? pairOfBase(coin) : undefined;
    const side = sideFromOrder(toStr(row.direction) ?? '');
    const price = toNumber(row.price);
    const ts = toNumber(row.created_at);
    const volume = toNumber(row.volume);
    const amount = toNumber(row.amount);
    const turnover = toNumber(row.trade_turnover);
    if (!code || !symbol || !side || price === undefined || ts === undefined || volume === undefined) {
      out.issues.push(`htx: unreadable liquidation: ${excerpt(row)}`);
      continue;
    }
    const id = `htx|${code}|${String(row.created_at)}|${String(row.direction)}|${String(row.volume)}|${String(row.price)}`;
    const fields = { ts, exchange: 'htx' as const, symbol, side, price };
    let event;
    if (amount !== undefined && amount > 0) {
      event = liquidation(id, { ...fields, qty: amount });
      // the exchange's own USDT value when it sends one
      if (event && turnover !== undefined && turnover > 0) event.notional = Math.round(turnover * 100) / 100;
    } else {
      event = liquidation(id, { ...fields, usd: volume * (coin === 'BTC' ? 100 : 10) });
    }
    if (event) out.events.push(event);
    else out.issues.push(`htx: unreadable liquidation: ${excerpt(row)}`);
  }
  return out;
}
