/**
 * The fill model: where a market order fills and how much of it, from the quoted price, the
 * slippage rate and the market impact of its size (a linear rate per 100k of notional, or a walk
 * of the venue's order book), with partial fills when the modelled depth cannot take it all. Pure.
 *
 * - The slippage rate (the table, or the profile's slippage_bps) stands for crossing the spread.
 * - Linear impact: the average fill moves impact_bps_per_100k for every 100k USD of the filled
 *   notional. Its modelled depth is the notional at which that move reaches MAX_IMPACT_BPS (1%):
 *   a fill never walks further than that from the quote.
 * - Book impact: the fill consumes the book's levels from the touch (asks for a buy, bids for a
 *   sell); the impact is the size-weighted price of what it consumed over the touch, in bps of
 *   the touch, applied to the quoted price (the book is one venue's, the quote the median of all).
 *   The book's depth is the notional of its levels.
 * - Beyond the depth: with partial fills on, only what the depth takes fills (refused below
 *   min_fill_pct); with them off the whole order fills: a linear move keeps growing with size, and
 *   a book's excess fills at its last level.
 * - Every cost lands against the trader: a buy never fills below the quote, a sell never above.
 */
import { slippedPrice, type TradeSide } from './slippage.js';

/** A linear impact never moves the average fill further than this from the quote, bps. */
export const MAX_IMPACT_BPS = 100;

/** One level of a book: price and size in the asset. */
export type DepthLevel = readonly [price: number, size: number];

/** The side of a book a fill consumes, best level first (asks ascending for a buy, bids descending for a sell). */
export type DepthSide = readonly DepthLevel[];

export type Impact = number | 'book';

export interface FillInput {
  trade: TradeSide;
  /** The quoted price the order meets. */
  reference: number;
  /** Requested notional, USD. */
  notional: number;
  /** Spread cost, bps (0 with slippage off). */
  slippageBps: number;
  /** bps per 100k USD, or 'book' to walk `book`. */
  impact: Impact;
  /** The consumed side of the venue's book (with impact 'book'); absent or empty: no depth known, no impact. */
  book?: DepthSide;
  partialFills: boolean;
  /** Refuse a partial fill below this share of the request, percent. */
  minFillPct: number;
}

export type FillQuote =
  | {
      ok: true;
      /** Average fill price. */
      price: number;
      /** Filled share of the requested notional, percent (100 unless partial). */
      fillPct: number;
      partial: boolean;
      /** Everything the fill paid over the quote, bps: spread plus impact. */
      slippageBps: number;
      impactBps: number;
    }
  | { ok: false; refusal: 'fill_below_min'; fillPct: number; depthUsd: number };

/** What a linear impact's depth takes: the notional at which its move reaches MAX_IMPACT_BPS. */
export function linearDepthUsd(bpsPer100k: number): number {
  return bpsPer100k > 0 ? (MAX_IMPACT_BPS / bpsPer100k) * 100_000 : Infinity;
}

/** The move of a linear impact over `notional`, bps. */
export function linearImpactBps(bpsPer100k: number, notional: number): number {
  return (bpsPer100k * notional) / 100_000;
}

/** The notional a book side holds, USD. */
export function bookDepthUsd(book: DepthSide): number {
  let total = 0;
  for (const [price, size] of book) total += price * size;
  return total;
}

/**
 * The size-weighted move of filling `notional` USD from the touch of `book`, bps of the touch;
 * beyond the book's depth the excess fills at the last level.
 */
export function bookImpactBps(book: DepthSide, trade: TradeSide, notional: number): number {
  if (book.length === 0 || notional <= 0) return 0;
  const touch = book[0][0];
  let left = notional;
  let qty = 0;
  for (const [price, size] of book) {
    const take = Math.min(left, price * size);
    qty += take / price;
    left -= take;
    if (left <= 0) break;
  }
  if (left > 0) qty += left / book[book.length - 1][0];
  const average = notional / qty;
  // a crossed or unsorted book never pays the trader
  return Math.max(0, ((trade === 'buy' ? average - touch : touch - average) / touch) * 10_000);
}

export function quoteFill(input: FillInput): FillQuote {
  const book = input.impact === 'book' ? (input.book ?? []) : undefined;
  const depthUsd = book ? (book.length > 0 ? bookDepthUsd(book) : Infinity) : linearDepthUsd(input.impact as number);
  let filled = input.notional;
  if (input.partialFills && input.notional > depthUsd) {
    filled = depthUsd;
    const fillPct = (filled / input.notional) * 100;
    if (fillPct < input.minFillPct) return { ok: false, refusal: 'fill_below_min', fillPct, depthUsd };
  }
  const impactBps = book ? bookImpactBps(book, input.trade, filled) : linearImpactBps(input.impact as number, filled);
  const slippageBps = input.slippageBps + impactBps;
  const fillPct = (filled / input.notional) * 100;
  return {
    ok: true,
    price: slippedPrice(input.reference, input.trade, slippageBps),
    fillPct,
    partial: fillPct < 100,
    slippageBps,
    impactBps,
  };
}
