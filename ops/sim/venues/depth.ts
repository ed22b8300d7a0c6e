/**
 * The simulated order book every venue serves in its own format (binance.ts, bybit.ts): 50 levels a
 * side around the venue's price, 0.5 bp apart from a touch 0.5 bp off the price, each level larger
 * than the one before (deeper books for BTC and ETH), so a market fill that walks it pays more the
 * more it takes. Deterministic from the price: no randomness to seed.
 */
/** Notional of the touch level, USD: BTC and ETH are the deepest books. */
const TOUCH_USD: Readonly<Record<string, number>> = { BTCUSDT: 250_000, ETHUSDT: 150_000 };
const OTHER_TOUCH_USD = 40_000;
const STEP = 0.00005;
const GROWTH = 1.05;

export interface SimBook {
  bids: [string, string][];
  asks: [string, string][];
}

export function simBook(symbol: string, price: number, levels: number): SimBook {
  const touch = TOUCH_USD[symbol] ?? OTHER_TOUCH_USD;
  const decimals = Math.max(0, 6 - Math.floor(Math.log10(price)));
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  for (let i = 0; i < levels; i++) {
    const notional = touch * GROWTH ** i;
    const bid = price * (1 - STEP * (i + 1));
    const ask = price * (1 + STEP * (i + 1));
    bids.push([bid.toFixed(decimals), (notional / bid).toFixed(4)]);
    asks.push([ask.toFixed(decimals), (notional / ask).toFixed(4)]);
  }
  return { bids, asks };
}
