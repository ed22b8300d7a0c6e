/**
 * Deribit has no liquidation channel: liquidations are the trades of `trades.future.<CCY>.100ms` that
 * carry `liquidation`. "T": the taker was liquidated (its order side is `direction`); "M": the maker
 * was (its side is the opposite); "MT": both, i.e. one long and one short. `amount` is USD for inverse
 * contracts (BTC-PERPETUAL) and base coin for linear ones (SOL_USDC-PERPETUAL).
 */
import { excerpt, isRecord, toNumber, toStr } from '../../../market/parse-utils.js';
import {
  emptyLiquidationFrame,
  liquidation,
  pairOfBase,
  sideFromOrder,
  type LiquidationFrame,
  type LiquidationSide,
} from '../liquidation-event.js';

/** Futures and perpetuals of these currencies (USDC carries the linear ones). */
export const DERIBIT_CURRENCIES = ['BTC', 'ETH', 'USDC'] as const;

export const deribitTradesChannel = (currency: string): string => `trades.future.${currency}.100ms`;

export function deribitRequest(id: number, method: string, params: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

const opposite = (side: LiquidationSide): LiquidationSide => (side === 'long_liquidated' ? 'short_liquidated' : 'long_liquidated');

export function parseDeribitLiquidations(msg: unknown): LiquidationFrame {
  const out = emptyLiquidationFrame();
  if (!isRecord(msg) || msg.method !== 'subscription' || !isRecord(msg.params) || !Array.isArray(msg.params.data)) return out;
  const channel = toStr(msg.params.channel) ?? '';
  if (!channel.startsWith('trades.')) return out;
  for (const trade of msg.params.data) {
    if (!isRecord(trade) || typeof trade.liquidation !== 'string') continue;
    const instrument = toStr(trade.instrument_name);
    const taker = sideFromOrder(toStr(trade.direction) ?? '');
    const amount = toNumber(trade.amount);
    const price = toNumber(trade.price);
    const ts = toNumber(trade.timestamp);
    const tradeId = toStr(trade.trade_id) ?? String(trade.trade_id);
    const base = instrument?.split(/[-_]/)[0];
    const symbol = base ? pairOfBase(base) : undefined;
    if (!instrument || !symbol || !taker || amount === undefined || price === undefined || ts === undefined) {
      out.issues.push(`deribit: unreadable liquidation trade: ${excerpt(trade)}`);
      continue;
    }
    const linear = /_(USDC|USDT)/.test(instrument);
    const sides: [string, LiquidationSide][] = [];
    if (trade.liquidation.includes('T')) sides.push(['T', taker]);
    if (trade.liquidation.includes('M')) sides.push(['M', opposite(taker)]);
    for (const [who, side] of sides) {
      const fields = { ts, exchange: 'deribit' as const, symbol, side, price };
      const event = liquidation(`deribit|${tradeId}|${who}`, linear ? { ...fields, qty: amount } : { ...fields, usd: amount });
      if (event) out.events.push(event);
      else out.issues.push(`deribit: unreadable liquidation trade: ${excerpt(trade)}`);
    }
  }
  return out;
}
