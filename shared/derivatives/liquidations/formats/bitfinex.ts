/**
 * Bitfinex (the ninth exchange): the `status` channel with key `liq:global` carries every derivatives
 * position liquidation: `["pos", POS_ID, MTS, null, SYMBOL, AMOUNT, BASE_PRICE, null, IS_MATCH,
 * IS_MARKET_SOLD, null, LIQUIDATION_PRICE]`. AMOUNT is the position: positive = a long was
 * liquidated. A position can be reported more than once (trigger, then execution): POS_ID identifies
 * it, so it counts once, at its liquidation price.
 */
import { excerpt, toNumber, toStr } from '../../../market/parse-utils.js';
import { emptyLiquidationFrame, liquidation, pairOfBase, type LiquidationFrame } from '../liquidation-event.js';

export const BITFINEX_LIQUIDATION_KEY = 'liq:global';

export function bitfinexSubscribeLiquidations(): string {
  return JSON.stringify({ event: 'subscribe', channel: 'status', key: BITFINEX_LIQUIDATION_KEY });
}

/** tBTCF0:USTF0 -> BTCUSDT; tETHF0:USTF0 -> ETHUSDT. */
export function bitfinexPair(symbol: string): string | undefined {
  const m = /^t([A-Z0-9]+?)F0:[A-Z]+F0$/.exec(symbol);
  return m ? pairOfBase(m[1]) : undefined;
}

function readEntry(entry: unknown[], out: LiquidationFrame): void {
  const posId = entry[1];
  const ts = toNumber(entry[2]);
  const name = toStr(entry[4]);
  const amount = toNumber(entry[5]);
  const basePrice = toNumber(entry[6]);
  const liqPrice = toNumber(entry[11]);
  const price = liqPrice !== undefined && liqPrice > 0 ? liqPrice : basePrice;
  const symbol = name ? bitfinexPair(name) : undefined;
  if (posId === undefined || posId === null || !symbol || amount === undefined || amount === 0 || price === undefined || ts === undefined) {
    out.issues.push(`bitfinex: unreadable liquidation: ${excerpt(entry)}`);
    return;
  }
  const side = amount > 0 ? 'long_liquidated' : 'short_liquidated';
  const event = liquidation(`bitfinex|${String(posId)}`, { ts, exchange: 'bitfinex', symbol, side, price, qty: Math.abs(amount) });
  if (event) out.events.push(event);
  else out.issues.push(`bitfinex: unreadable liquidation: ${excerpt(entry)}`);
}

export function parseBitfinexLiquidations(msg: unknown): LiquidationFrame {
  const out = emptyLiquidationFrame();
  // [CHAN_ID, payload, SEQ?, TS?]; payload is one entry, a list of entries, or "hb"
  if (!Array.isArray(msg) || msg.length < 2 || !Array.isArray(msg[1])) return out;
  const payload = msg[1] as unknown[];
  const entries = payload[0] === 'pos' ? [payload] : payload.filter((e): e is unknown[] => Array.isArray(e) && e[0] === 'pos');
  for (const entry of entries) readEntry(entry, out);
  return out;
}
