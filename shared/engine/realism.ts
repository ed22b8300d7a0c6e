/**
 * A market entry under a book's simulation profile: the profile with the open's own overrides, the
 * fill (fill-model.ts), the maintenance rate (margin-model.ts) and the cost terms (cost-model.ts)
 * in one answer the position is stamped with for life. Pure.
 */
import { fundingMultiplier, takerBasePct } from './cost-model.js';
import type { AssetClass } from './fees.js';
import { quoteFill, type DepthSide } from './fill-model.js';
import { maintenanceRate, type MaintenanceRate } from './margin-model.js';
import type { Side } from './side.js';
import type { SimProfile } from './sim-profile.js';
import { entryTrade, tableSlippageBps } from './slippage.js';

/** What one open may override for itself (the spec's per-call realism). */
export interface OpenOverrides {
  slippage?: boolean;
  margin_tiers?: boolean;
  mmr_pct?: number;
}

/** The profile a fill uses: the book's, with the open's overrides. */
export function effectiveProfile(profile: SimProfile, overrides: OpenOverrides): SimProfile {
  if (overrides.slippage === undefined && overrides.margin_tiers === undefined && overrides.mmr_pct === undefined) return profile;
  return {
    ...profile,
    slippage: overrides.slippage ?? profile.slippage,
    margin_tiers: overrides.margin_tiers ?? profile.margin_tiers,
    mmr_pct: overrides.mmr_pct ?? profile.mmr_pct,
  };
}

/** The three switches a position carries, under the names the realism route and the arena use. */
export interface RealismStamp {
  slippage: boolean;
  margin_tiers: boolean;
  margin_venue: string;
}

export interface ModelledEntryInput {
  profile: SimProfile;
  symbol: string;
  assetClass: AssetClass;
  side: Side;
  /** The quoted price the open meets. */
  reference: number;
  margin: number;
  leverage: number;
  /** The table's per-side rate (class or fee venue), percent. */
  tablePct: number;
  /** The consumed side of the venue's book, when the profile walks it and one is kept for the symbol. */
  book?: DepthSide;
}

export interface ModelledEntry {
  ok: true;
  price: number;
  /** The quoted price it met. */
  quoted: number;
  /** The margin that filled (the request's unless partial), USD. */
  margin: number;
  fill: { requested_margin_usd: number; filled_margin_usd: number; fill_pct: number; partial: boolean };
  /** Paid over the quote, bps, and in USD over the filled quantity. */
  slippageBps: number;
  slippageUsd: number;
  /** The rate before the half-initial-margin bound (priceOpen applies it). */
  maintenance: MaintenanceRate;
  basePct: number;
  fundingMult: number;
  /** The spread an exit pays, bps, when exits slip and stops gap (the profile's exit_slippage); null when they do not. */
  exitSlippageBps: number | null;
  realism: RealismStamp;
}

export type EntryRefusal = { ok: false; refusal: 'fill_below_min'; fillPct: number; depthUsd: number };

export function modelEntry(input: ModelledEntryInput): ModelledEntry | EntryRefusal {
  const { profile } = input;
  const notional = input.margin * input.leverage;
  const slippageBps = profile.slippage ? (profile.slippage_bps ?? tableSlippageBps(input.symbol, input.assetClass)) : 0;
  const quote = quoteFill({
    trade: entryTrade(input.side),
    reference: input.reference,
    notional,
    slippageBps,
    impact: profile.impact_bps_per_100k,
    book: input.book,
    partialFills: profile.partial_fills,
    minFillPct: profile.min_fill_pct,
  });
  if (!quote.ok) return quote;
  // cents: a partial fill's margin is money the book shows
  const margin = quote.partial ? Math.floor(input.margin * quote.fillPct) / 100 : input.margin;
  const filledNotional = margin * input.leverage;
  return {
    ok: true,
    price: quote.price,
    quoted: input.reference,
    margin,
    fill: {
      requested_margin_usd: input.margin,
      filled_margin_usd: margin,
      fill_pct: Number(quote.fillPct.toFixed(4)),
      partial: quote.partial,
    },
    slippageBps: quote.slippageBps,
    slippageUsd: (filledNotional / quote.price) * Math.abs(quote.price - input.reference),
    maintenance: maintenanceRate({
      notional: filledNotional,
      leverage: input.leverage,
      venue: profile.margin_venue,
      tiers: profile.margin_tiers,
      overridePct: profile.mmr_pct,
    }),
    basePct: takerBasePct(input.tablePct, profile.taker_bps),
    fundingMult: fundingMultiplier(profile.funding, profile.funding_mult),
    // an exit crosses the spread as the entry did: the profile's rate, or the table's (even with entry slippage off)
    exitSlippageBps: profile.exit_slippage ? (profile.slippage_bps ?? tableSlippageBps(input.symbol, input.assetClass)) : null,
    realism: { slippage: profile.slippage, margin_tiers: profile.margin_tiers, margin_venue: profile.margin_venue },
  };
}
