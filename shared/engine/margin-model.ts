/**
 * The margin model: the maintenance rate a position is stamped with, from the flat 0.5%, a venue's
 * published base rate (margin_venue), an explicit override (mmr_pct), and the service's tier ladder
 * (margin_tiers). It moves only the liquidation price. Pure.
 *
 * - Base rate: mmr_pct when given, else the margin venue's published rate, else the flat 0.5%.
 * - Tiers on: the whole notional pays its tier's step over tier 0 on top of the base (a venue's
 *   ladder charges each band at its own rate minus a maintenance amount; charging the whole notional
 *   at its band is the conservative reading, and never liquidates later than the venue would).
 * - Where that rate would put the liquidation price at or past the entry, half of the initial margin
 *   (50 / leverage percent) instead (maintenancePct), so it always lies on the losing side.
 */
import { MAINTENANCE_MARGIN_PCT, maintenancePct } from './liquidation.js';

export interface MarginVenue {
  venue: string;
  /** Published maintenance margin at the venue's first tier for its BTC perpetual, percent of notional. */
  mmrPct: number;
  source: string;
}

const SPEC_SOURCE = "the spec: the venue's base rate as the original publishes it";

/**
 * Eleven venues. The first six are the spec's (the rates the original publishes); the other five
 * are the venues' own published first-tier rates for their BTC perpetual, with where they are published.
 */
export const MARGIN_VENUES: readonly MarginVenue[] = [
  { venue: 'binance', mmrPct: 0.4, source: SPEC_SOURCE },
  { venue: 'bybit', mmrPct: 0.5, source: SPEC_SOURCE },
  { venue: 'mexc', mmrPct: 0.1, source: SPEC_SOURCE },
  { venue: 'kraken', mmrPct: 0.6, source: SPEC_SOURCE },
  { venue: 'hyperliquid', mmrPct: 1.25, source: SPEC_SOURCE },
  { venue: 'coinbase', mmrPct: 1.33, source: SPEC_SOURCE },
  { venue: 'okx', mmrPct: 0.4, source: 'OKX position tiers, BTC-USDT-SWAP tier 1 (okx.com/trade-market/position-tiers)' },
  {
    venue: 'bitget',
    mmrPct: 0.4,
    source: 'Bitget position tiers, BTCUSDT tier 1 (keepMarginRate 0.004, /api/v2/mix/market/query-position-lever)',
  },
  { venue: 'kucoin', mmrPct: 0.4, source: 'KuCoin Futures XBTUSDTM contract (maintainMargin 0.004, /api/v1/contracts/active)' },
  { venue: 'gate', mmrPct: 0.5, source: 'Gate futures BTC_USDT contract (maintenance_rate 0.005, /api/v4/futures/usdt/contracts)' },
  { venue: 'dydx', mmrPct: 3, source: 'dYdX v4 BTC-USD perpetual (maintenance margin fraction 0.03 of initial 0.05)' },
];

export function findMarginVenue(name: string): MarginVenue | undefined {
  return MARGIN_VENUES.find((v) => v.venue === name);
}

export interface MarginTier {
  tier: number;
  /** Notional from (inclusive), USD. */
  fromUsd: number;
  /** Notional up to (exclusive), USD; null for the last tier. */
  toUsd: number | null;
  mmrPct: number;
}

/** The service's published ladder: five tiers, tier 0 at 0.5%. */
export const MARGIN_TIERS: readonly MarginTier[] = [
  { tier: 0, fromUsd: 0, toUsd: 100_000, mmrPct: 0.5 },
  { tier: 1, fromUsd: 100_000, toUsd: 500_000, mmrPct: 1 },
  { tier: 2, fromUsd: 500_000, toUsd: 1_000_000, mmrPct: 1.5 },
  { tier: 3, fromUsd: 1_000_000, toUsd: 5_000_000, mmrPct: 2.5 },
  { tier: 4, fromUsd: 5_000_000, toUsd: null, mmrPct: 5 },
];

export function tierOf(notional: number): MarginTier {
  for (let i = MARGIN_TIERS.length - 1; i > 0; i--) if (notional >= MARGIN_TIERS[i].fromUsd) return MARGIN_TIERS[i];
  return MARGIN_TIERS[0];
}

/** mmr_pct: above 0, at most 10 percent of notional. */
export const MMR_PCT_RANGE = { min: 0.01, max: 10 } as const;

export interface MarginInput {
  notional: number;
  leverage: number;
  /** A known margin venue's name, or '' for none. */
  venue: string;
  tiers: boolean;
  /** An explicit base rate, percent; null or undefined: the venue's or the flat rate. */
  overridePct?: number | null;
}

export interface MaintenanceRate {
  /** The rate stamped on the position, percent. */
  mmrPct: number;
  /** The base before tiers, percent, and where it came from. */
  basePct: number;
  base: 'flat' | 'venue' | 'override';
  /** The tier the notional fell in (tiers on), else null. */
  tier: number | null;
}

export function maintenanceRate(input: MarginInput): MaintenanceRate {
  const venue = input.venue === '' ? undefined : findMarginVenue(input.venue);
  const hasOverride = input.overridePct !== null && input.overridePct !== undefined;
  const basePct = hasOverride ? (input.overridePct as number) : (venue?.mmrPct ?? MAINTENANCE_MARGIN_PCT);
  const tier = input.tiers ? tierOf(input.notional) : null;
  const step = tier ? tier.mmrPct - MARGIN_TIERS[0].mmrPct : 0;
  return {
    mmrPct: maintenancePct(input.leverage, basePct + step),
    basePct,
    base: hasOverride ? 'override' : venue ? 'venue' : 'flat',
    tier: tier?.tier ?? null,
  };
}
