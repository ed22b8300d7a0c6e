/**
 * Taker fees: the per-class rates, the nine fee venues, and the high-leverage cap that keeps a
 * round trip at or below 20% of the margin. Rates are in percent per side (0.055 = 0.055%). Pure.
 */
export type AssetClass = 'crypto' | 'stock' | 'forex' | 'metal' | 'index';
export const ASSET_CLASSES: readonly AssetClass[] = ['crypto', 'stock', 'forex', 'metal', 'index'];

/** Per-side taker fee by class, percent of notional. */
export const CLASS_TAKER_PCT: Readonly<Record<AssetClass, number>> = {
  crypto: 0.055,
  stock: 0.02,
  metal: 0.015,
  index: 0.015,
  forex: 0.008,
};

/** A round trip never costs more than this share of the margin (the lowered rate at entry, the bound at settlement). */
export const MAX_ROUND_TRIP_SHARE_OF_MARGIN = 0.2;

/**
 * The per-side rate a position is stamped with: the base rate, lowered at high leverage so that
 * 2 x notional x rate <= 20% of the margin, i.e. rate <= 10 / leverage percent. For crypto
 * (0.055%) the cap starts at about 182x.
 */
export function cappedRatePct(baseRatePct: number, leverage: number): number {
  const cap = (MAX_ROUND_TRIP_SHARE_OF_MARGIN * 100) / (2 * leverage);
  return Math.min(baseRatePct, cap);
}

export type FeeVenueId = 'bybit' | 'binance' | 'bitget' | 'gate' | 'hyperliquid' | 'okx' | 'kraken' | 'mexc' | 'kucoin';

export interface FeeVenue {
  venue: FeeVenueId;
  /** Published base taker rate, percent per side. */
  takerPct: number;
  /** Referral discount on the taker rate, percent. */
  referralDiscountPct: number;
  /** Published maker rate at the base tier, percent (informational: both legs pay the taker rate). */
  makerPct: number;
  /** The referral code the discount comes with, when the venue has one. */
  code: string | null;
}

/**
 * The nine published schedules, in the order and with the numbers the original service lists
 * (its trading-API page): four with a 20% referral discount, hyperliquid with 4% through its code,
 * four without discount.
 */
export const FEE_VENUES: readonly FeeVenue[] = [
  { venue: 'bybit', takerPct: 0.055, referralDiscountPct: 20, makerPct: 0.02, code: null },
  { venue: 'binance', takerPct: 0.05, referralDiscountPct: 20, makerPct: 0.02, code: null },
  { venue: 'bitget', takerPct: 0.06, referralDiscountPct: 20, makerPct: 0.02, code: null },
  { venue: 'gate', takerPct: 0.05, referralDiscountPct: 20, makerPct: 0.02, code: null },
  { venue: 'hyperliquid', takerPct: 0.045, referralDiscountPct: 4, makerPct: 0.015, code: 'MARGINPAD' },
  { venue: 'okx', takerPct: 0.05, referralDiscountPct: 0, makerPct: 0.02, code: null },
  { venue: 'kraken', takerPct: 0.05, referralDiscountPct: 0, makerPct: 0.02, code: null },
  { venue: 'mexc', takerPct: 0.02, referralDiscountPct: 0, makerPct: 0, code: null },
  { venue: 'kucoin', takerPct: 0.06, referralDiscountPct: 0, makerPct: 0.02, code: null },
];

export function findFeeVenue(name: string): FeeVenue | undefined {
  return FEE_VENUES.find((v) => v.venue === name);
}

/** A venue's effective per-side rate: taker x (1 - discount), percent. */
export function venueEffectivePct(venue: FeeVenue): number {
  return Number((venue.takerPct * (1 - venue.referralDiscountPct / 100)).toFixed(6));
}

/**
 * The base per-side rate for a class, with a fee venue: a venue schedule applies to crypto
 * perpetuals only; every other class keeps its class rate.
 */
export function baseTakerPct(assetClass: AssetClass, venue: FeeVenue | undefined): { ratePct: number; venue: FeeVenue | undefined } {
  if (assetClass === 'crypto' && venue) return { ratePct: venueEffectivePct(venue), venue };
  return { ratePct: CLASS_TAKER_PCT[assetClass], venue: undefined };
}
