/**
 * The normalized liquidation event every exchange format is turned into, and the small pure helpers
 * the format parsers share: side semantics, coin naming and USD sizing.
 */

import { LIQUIDATION_EXCHANGES, type LiquidationExchange } from './liquidation-urls.js';

/** The nine exchanges whose public liquidation streams the collector reads, lowercase as in events and routes. */
export type LiqExchange = LiquidationExchange;
export const LIQ_EXCHANGES: readonly LiqExchange[] = LIQUIDATION_EXCHANGES;

export function isLiqExchange(value: unknown): value is LiqExchange {
  return typeof value === 'string' && (LIQ_EXCHANGES as readonly string[]).includes(value);
}

/** Which positions were closed by force: a long (sold off) or a short (bought back). */
export type LiquidationSide = 'long_liquidated' | 'short_liquidated';

/** One liquidation as every route shows it. */
export interface LiquidationEvent {
  /** Exchange event time, ms (receipt time where the exchange sends none: BitMEX). */
  ts: number;
  exchange: LiqExchange;
  /** The coin's canonical USDT pair (BTCUSDT), whatever the contract (XBTUSD, BTC-PERPETUAL, BTC-USD-SWAP...). */
  symbol: string;
  side: LiquidationSide;
  price: number;
  /** Base-coin quantity. */
  qty: number;
  /** USD value (USDT and USDC counted at 1 USD). */
  notional: number;
}

/** An event with the identity used to drop replays (the exchange's id where it has one, else its fields). */
export interface CollectedLiquidation extends LiquidationEvent {
  id: string;
}

/** What one frame yields. */
export interface LiquidationFrame {
  events: CollectedLiquidation[];
  /** Elements that looked like liquidations but could not be read; logged and skipped. */
  issues: string[];
}

export function emptyLiquidationFrame(): LiquidationFrame {
  return { events: [], issues: [] };
}

/** The liquidation ORDER's side (Binance S, OKX side, BitMEX side, HTX direction): a sell closes a long. */
export function sideFromOrder(orderSide: string): LiquidationSide | undefined {
  const s = orderSide.toLowerCase();
  if (s === 'sell') return 'long_liquidated';
  if (s === 'buy') return 'short_liquidated';
  return undefined;
}

/** The liquidated POSITION's side (Bybit S, Bitget side, OKX posSide): buy/long means a long was liquidated. */
export function sideFromPosition(positionSide: string): LiquidationSide | undefined {
  const s = positionSide.toLowerCase();
  if (s === 'buy' || s === 'long') return 'long_liquidated';
  if (s === 'sell' || s === 'short') return 'short_liquidated';
  return undefined;
}

/** A base coin: letters and digits (1000PEPE, 1INCH), at least one letter, at most 20 characters. */
const BASE = /^(?=[A-Z0-9]*[A-Z])[A-Z0-9]{1,20}$/;
/** Exchanges that spell a coin differently from everyone else. */
const BASE_ALIASES: Record<string, string> = { XBT: 'BTC' };

/** The canonical pair (BTCUSDT) of a base coin as an exchange spells it (XBT, btc); undefined when not a coin name. */
export function pairOfBase(base: string): string | undefined {
  const upper = base.trim().toUpperCase();
  const coin = BASE_ALIASES[upper] ?? upper;
  return BASE.test(coin) ? `${coin}USDT` : undefined;
}

const QUOTES = ['USDT', 'USDC', 'FDUSD', 'BUSD', 'USD', 'PERP'];

/** BTCUSDT, BTCUSDC, BTCUSDT_250328, BTCPERP, XBTUSD -> BTCUSDT: strips a dated suffix, then the quote. */
export function pairOfConcatenated(symbol: string): string | undefined {
  const name = symbol
    .trim()
    .toUpperCase()
    .replace(/_\d{6}$/, '');
  for (const quote of QUOTES) {
    if (name.length > quote.length && name.endsWith(quote)) return pairOfBase(name.slice(0, -quote.length));
  }
  return undefined;
}

const round = (value: number, dp: number): number => {
  const f = 10 ** dp;
  return Math.round(value * f) / f;
};

/**
 * Builds the event from a base quantity (linear contracts) or a USD amount (inverse contracts),
 * rounding qty to 8 and notional to 2 decimals. Undefined when a number is missing or not positive.
 */
export function liquidation(
  id: string,
  fields: { ts: number; exchange: LiqExchange; symbol: string; side: LiquidationSide; price: number } & ({ qty: number } | { usd: number }),
): CollectedLiquidation | undefined {
  const { price } = fields;
  if (!(price > 0) || !Number.isFinite(price) || !(fields.ts > 0)) return undefined;
  const qty = 'qty' in fields ? fields.qty : fields.usd / price;
  const notional = 'qty' in fields ? fields.qty * price : fields.usd;
  if (!(qty > 0) || !Number.isFinite(qty) || !(notional > 0) || !Number.isFinite(notional)) return undefined;
  return {
    id,
    ts: Math.round(fields.ts),
    exchange: fields.exchange,
    symbol: fields.symbol,
    side: fields.side,
    price,
    qty: round(qty, 8),
    notional: round(notional, 2),
  };
}

/** The event without its id, as routes show it. */
export function publicEvent(e: LiquidationEvent): LiquidationEvent {
  return { ts: e.ts, exchange: e.exchange, symbol: e.symbol, side: e.side, price: e.price, qty: e.qty, notional: e.notional };
}
