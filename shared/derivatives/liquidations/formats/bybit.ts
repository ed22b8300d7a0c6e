/**
 * Bybit v5 `allLiquidation.<SYMBOL>` (and the retired `liquidation.<SYMBOL>`). `S`/`side` is the side
 * of the liquidated POSITION (Bybit: "a Buy update means a long position has been liquidated"), the
 * opposite letter from Binance for the same event. `p` is the bankruptcy price; `v` is in base coin
 * for linear contracts and in USD for inverse ones (BTCUSD).
 */
import { excerpt, isRecord, toNumber, toStr } from '../../../market/parse-utils.js';
import {
  emptyLiquidationFrame,
  liquidation,
  pairOfConcatenated,
  sideFromPosition,
  type CollectedLiquidation,
  type LiquidationFrame,
} from '../liquidation-event.js';

export const bybitLiquidationTopic = (symbol: string): string => `allLiquidation.${symbol}`;

/** Inverse contracts are quoted in USD (BTCUSD, XRPUSD); linear ones in USDT/USDC (BTCUSDT, BTCPERP). */
const isInverse = (symbol: string): boolean => symbol.endsWith('USD');

function read(raw: Record<string, unknown>): CollectedLiquidation | undefined {
  const name = toStr(raw.s) ?? toStr(raw.symbol);
  const sideText = toStr(raw.S) ?? toStr(raw.side);
  const size = toNumber(raw.v ?? raw.size);
  const price = toNumber(raw.p ?? raw.price);
  const ts = toNumber(raw.T ?? raw.updatedTime);
  const symbol = name ? pairOfConcatenated(name) : undefined;
  const side = sideText ? sideFromPosition(sideText) : undefined;
  if (!name || !symbol || !side || size === undefined || price === undefined || ts === undefined) return undefined;
  const id = `bybit|${name}|${ts}|${sideText}|${String(raw.v ?? raw.size)}|${String(raw.p ?? raw.price)}`;
  const base = { ts, exchange: 'bybit' as const, symbol, side, price };
  return liquidation(id, isInverse(name) ? { ...base, usd: size } : { ...base, qty: size });
}

export function parseBybitLiquidations(msg: unknown): LiquidationFrame {
  const out = emptyLiquidationFrame();
  if (!isRecord(msg) || typeof msg.topic !== 'string') return out;
  if (!msg.topic.startsWith('allLiquidation.') && !msg.topic.startsWith('liquidation.')) return out;
  const rows = Array.isArray(msg.data) ? msg.data : [msg.data];
  for (const row of rows) {
    const event = isRecord(row) ? read(row) : undefined;
    if (event) out.events.push(event);
    else out.issues.push(`bybit: unreadable liquidation: ${excerpt(row)}`);
  }
  return out;
}
