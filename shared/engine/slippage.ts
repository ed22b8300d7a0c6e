/**
 * The slippage table: how far a taker fill lands from the quoted price, by kind of market, when the
 * slippage switch is on. A buy fills higher, a sell lower; never in the trader's favour. Pure.
 */
import type { AssetClass } from './fees.js';
import { isMajor } from './majors.js';
import type { Side } from './side.js';

/** Which way a fill trades: an entry long or an exit short buys. */
export type TradeSide = 'buy' | 'sell';

export const entryTrade = (side: Side): TradeSide => (side === 'long' ? 'buy' : 'sell');
export const exitTrade = (side: Side): TradeSide => (side === 'long' ? 'sell' : 'buy');

/** The spec's rates, percent of the price: majors, thinner crypto, forex, and stocks, metals and indices. */
export const SLIPPAGE_PCT = { major: 0.01, crypto: 0.05, forex: 0.005, stock: 0.02, metal: 0.02, index: 0.02 } as const;

export type SlippageTier = keyof typeof SLIPPAGE_PCT;

/** The table row of a symbol (canonical, BTCUSDT): majors are the eight of shared/engine/majors.ts. */
export function slippageTier(symbol: string, assetClass: AssetClass): SlippageTier {
  if (assetClass !== 'crypto') return assetClass;
  return isMajor(symbol) ? 'major' : 'crypto';
}

/** The table's rate in basis points (0.01% = 1 bp). */
export function tableSlippageBps(symbol: string, assetClass: AssetClass): number {
  return SLIPPAGE_PCT[slippageTier(symbol, assetClass)] * 100;
}

/** Where an exit at `price` fills: `exitBps` against the trader when the position's exits slip (absent: at the price). */
export function exitPrice(side: Side, price: number, exitBps: number | undefined): number {
  return exitBps === undefined ? price : slippedPrice(price, exitTrade(side), exitBps);
}

/** `price` moved `bps` against the trader: up for a buy, down for a sell. */
export function slippedPrice(price: number, trade: TradeSide, bps: number): number {
  return price * (1 + ((trade === 'buy' ? 1 : -1) * bps) / 10_000);
}
